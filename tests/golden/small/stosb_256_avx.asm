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
vpxor xmm0, xmm0, xmm0                      ; C5F9EFC0
vmovdqu ymmword ptr [rdi], ymm0             ; C5FE7F07
vmovdqu ymmword ptr [rdi+rsi-32], ymm0      ; C5FE7F4437E0
vzeroupper                                  ; C5F877
ret                                         ; C3
align 64
L1:
cmp rsi, 257                                ; 4881FE01010000
jae L0                                      ; 0F83........
vpxor xmm0, xmm0, xmm0                      ; C5F9EFC0
vmovdqu ymmword ptr [rdi], ymm0             ; C5FE7F07
vmovdqu ymmword ptr [rdi+32], ymm0          ; C5FE7F4720
vmovdqu ymmword ptr [rdi+64], ymm0          ; C5FE7F4740
vmovdqu ymmword ptr [rdi+96], ymm0          ; C5FE7F4760
vmovdqu ymmword ptr [rdi+rsi-128], ymm0     ; C5FE7F443780
vmovdqu ymmword ptr [rdi+rsi-96], ymm0      ; C5FE7F4437A0
vmovdqu ymmword ptr [rdi+rsi-64], ymm0      ; C5FE7F4437C0
vmovdqu ymmword ptr [rdi+rsi-32], ymm0      ; C5FE7F4437E0
vzeroupper                                  ; C5F877
ret                                         ; C3
L0:
