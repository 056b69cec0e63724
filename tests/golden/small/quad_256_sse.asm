cmp rsi, 64                                 ; 4883FE40
jb L1                                       ; 0F82........
cmp rsi, 257                                ; 4881FE01010000
jae L0                                      ; 0F83........
pxor xmm0, xmm0                             ; 660FEFC0
mov rax, rsi                                ; 4889F0
shr rax, 1                                  ; 48D1E8
and rax, -64                                ; 4883E0C0
movdqu xmmword ptr [rdi], xmm0              ; F30F7F07
movdqu xmmword ptr [rdi+16], xmm0           ; F30F7F4710
movdqu xmmword ptr [rdi+32], xmm0           ; F30F7F4720
movdqu xmmword ptr [rdi+48], xmm0           ; F30F7F4730
movdqu xmmword ptr [rdi+rsi-64], xmm0       ; F30F7F4437C0
movdqu xmmword ptr [rdi+rsi-48], xmm0       ; F30F7F4437D0
movdqu xmmword ptr [rdi+rsi-32], xmm0       ; F30F7F4437E0
movdqu xmmword ptr [rdi+rsi-16], xmm0       ; F30F7F4437F0
movdqu xmmword ptr [rdi+rax], xmm0          ; F30F7F0407
movdqu xmmword ptr [rdi+rax+16], xmm0       ; F30F7F440710
movdqu xmmword ptr [rdi+rax+32], xmm0       ; F30F7F440720
movdqu xmmword ptr [rdi+rax+48], xmm0       ; F30F7F440730
mov rcx, rsi                                ; 4889F1
sub rcx, rax                                ; 4829C1
movdqu xmmword ptr [rdi+rcx-64], xmm0       ; F30F7F440FC0
movdqu xmmword ptr [rdi+rcx-48], xmm0       ; F30F7F440FD0
movdqu xmmword ptr [rdi+rcx-32], xmm0       ; F30F7F440FE0
movdqu xmmword ptr [rdi+rcx-16], xmm0       ; F30F7F440FF0
ret                                         ; C3
align 64
L1:
cmp rsi, 16                                 ; 4883FE10
jb L3                                       ; 0F82........
pxor xmm0, xmm0                             ; 660FEFC0
mov rax, rsi                                ; 4889F0
shr rax, 1                                  ; 48D1E8
and rax, -16                                ; 4883E0F0
movdqu xmmword ptr [rdi], xmm0              ; F30F7F07
movdqu xmmword ptr [rdi+rsi-16], xmm0       ; F30F7F4437F0
movdqu xmmword ptr [rdi+rax], xmm0          ; F30F7F0407
mov rcx, rsi                                ; 4889F1
sub rcx, rax                                ; 4829C1
movdqu xmmword ptr [rdi+rcx-16], xmm0       ; F30F7F440FF0
ret                                         ; C3
align 64
L3:
cmp rsi, 4                                  ; 4883FE04
jb L4                                       ; 0F82........
mov rax, rsi                                ; 4889F0
shr rax, 1                                  ; 48D1E8
and rax, -4                                 ; 4883E0FC
mov dword ptr [rdi], 0                      ; C70700000000
mov dword ptr [rdi+rsi-4], 0                ; C74437FC00000000
mov dword ptr [rdi+rax], 0                  ; C7040700000000
mov rcx, rsi                                ; 4889F1
sub rcx, rax                                ; 4829C1
mov dword ptr [rdi+rcx-4], 0                ; C7440FFC00000000
ret                                         ; C3
align 64
L4:
test rsi, rsi                               ; 4885F6
jnz L5                                      ; 0F85........
ret                                         ; C3
align 64
L5:
mov rax, rsi                                ; 4889F0
shr rax, 1                                  ; 48D1E8
mov byte ptr [rdi], 0                       ; C60700
mov byte ptr [rdi+rsi-1], 0                 ; C64437FF00
mov byte ptr [rdi+rax], 0                   ; C6040700
ret                                         ; C3
L0:
