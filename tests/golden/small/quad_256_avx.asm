cmp rsi, 64                                 ; 4883FE40
jb L1                                       ; 0F82........
cmp rsi, 257                                ; 4881FE01010000
jae L0                                      ; 0F83........
vpxor xmm0, xmm0, xmm0                      ; C5F9EFC0
mov rax, rsi                                ; 4889F0
shr rax, 1                                  ; 48D1E8
and rax, -64                                ; 4883E0C0
vmovdqu ymmword ptr [rdi], ymm0             ; C5FE7F07
vmovdqu ymmword ptr [rdi+32], ymm0          ; C5FE7F4720
vmovdqu ymmword ptr [rdi+rsi-64], ymm0      ; C5FE7F4437C0
vmovdqu ymmword ptr [rdi+rsi-32], ymm0      ; C5FE7F4437E0
vmovdqu ymmword ptr [rdi+rax], ymm0         ; C5FE7F0407
vmovdqu ymmword ptr [rdi+rax+32], ymm0      ; C5FE7F440720
mov rcx, rsi                                ; 4889F1
sub rcx, rax                                ; 4829C1
vmovdqu ymmword ptr [rdi+rcx-64], ymm0      ; C5FE7F440FC0
vmovdqu ymmword ptr [rdi+rcx-32], ymm0      ; C5FE7F440FE0
vzeroupper                                  ; C5F877
ret                                         ; C3
align 64
L1:
cmp rsi, 16                                 ; 4883FE10
jb L3                                       ; 0F82........
vpxor xmm0, xmm0, xmm0                      ; C5F9EFC0
mov rax, rsi                                ; 4889F0
shr rax, 1                                  ; 48D1E8
and rax, -16                                ; 4883E0F0
vmovdqu xmmword ptr [rdi], xmm0             ; C5FA7F07
vmovdqu xmmword ptr [rdi+rsi-16], xmm0      ; C5FA7F4437F0
vmovdqu xmmword ptr [rdi+rax], xmm0         ; C5FA7F0407
mov rcx, rsi                                ; 4889F1
sub rcx, rax                                ; 4829C1
vmovdqu xmmword ptr [rdi+rcx-16], xmm0      ; C5FA7F440FF0
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
