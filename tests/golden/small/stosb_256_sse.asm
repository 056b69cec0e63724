cmp rsi, 128                                ; 4881FE80000000
jae L1                                      ; 0F83........
cmp rsi, 64                                 ; 4883FE40
je L2                                       ; 0F84........
mov rcx, rsi                                ; 4889F1
xor eax, eax                                ; 31C0
rep stos byte ptr [rdi], al                 ; F3AA
ret                                         ; C3
align 64
L2:
pxor xmm0, xmm0                             ; 660FEFC0
movdqu xmmword ptr [rdi], xmm0              ; F30F7F07
movdqu xmmword ptr [rdi+16], xmm0           ; F30F7F4710
movdqu xmmword ptr [rdi+rsi-32], xmm0       ; F30F7F4437E0
movdqu xmmword ptr [rdi+rsi-16], xmm0       ; F30F7F4437F0
ret                                         ; C3
align 64
L1:
cmp rsi, 257                                ; 4881FE01010000
jae L0                                      ; 0F83........
pxor xmm0, xmm0                             ; 660FEFC0
movdqu xmmword ptr [rdi], xmm0              ; F30F7F07
movdqu xmmword ptr [rdi+16], xmm0           ; F30F7F4710
movdqu xmmword ptr [rdi+32], xmm0           ; F30F7F4720
movdqu xmmword ptr [rdi+48], xmm0           ; F30F7F4730
movdqu xmmword ptr [rdi+64], xmm0           ; F30F7F4740
movdqu xmmword ptr [rdi+80], xmm0           ; F30F7F4750
movdqu xmmword ptr [rdi+96], xmm0           ; F30F7F4760
movdqu xmmword ptr [rdi+112], xmm0          ; F30F7F4770
movdqu xmmword ptr [rdi+rsi-128], xmm0      ; F30F7F443780
movdqu xmmword ptr [rdi+rsi-112], xmm0      ; F30F7F443790
movdqu xmmword ptr [rdi+rsi-96], xmm0       ; F30F7F4437A0
movdqu xmmword ptr [rdi+rsi-80], xmm0       ; F30F7F4437B0
movdqu xmmword ptr [rdi+rsi-64], xmm0       ; F30F7F4437C0
movdqu xmmword ptr [rdi+rsi-48], xmm0       ; F30F7F4437D0
movdqu xmmword ptr [rdi+rsi-32], xmm0       ; F30F7F4437E0
movdqu xmmword ptr [rdi+rsi-16], xmm0       ; F30F7F4437F0
ret                                         ; C3
L0:
