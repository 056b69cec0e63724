lea r8, [rdi+rsi]                           ; 4C8D0437
xor eax, eax                                ; 31C0
vpxor xmm0, xmm0, xmm0                      ; C5F9EFC0
cmp rsi, 128                                ; 4881FE80000000
ja L1                                       ; 0F87........
cmp rsi, 8                                  ; 4883FE08
jae L2                                      ; 0F83........
cmp rsi, 2                                  ; 4883FE02
jae L3                                      ; 0F83........
cmp rsi, 1                                  ; 4883FE01
jb L0                                       ; 0F82........
mov byte ptr [rdi], al                      ; 8807
mov byte ptr [r8-1], al                     ; 418840FF
jmp L0                                      ; E9........
L3:
cmp rsi, 4                                  ; 4883FE04
jae L4                                      ; 0F83........
mov word ptr [rdi], ax                      ; 668907
mov word ptr [r8-2], ax                     ; 66418940FE
jmp L0                                      ; E9........
L4:
mov dword ptr [rdi], eax                    ; 8907
mov dword ptr [r8-4], eax                   ; 418940FC
jmp L0                                      ; E9........
L2:
cmp rsi, 32                                 ; 4883FE20
jae L5                                      ; 0F83........
cmp rsi, 16                                 ; 4883FE10
jae L6                                      ; 0F83........
mov qword ptr [rdi], rax                    ; 488907
mov qword ptr [r8-8], rax                   ; 498940F8
jmp L0                                      ; E9........
L6:
vmovdqu xmmword ptr [rdi], xmm0             ; C5FA7F07
vmovdqu xmmword ptr [r8-16], xmm0           ; C4C17A7F40F0
jmp L0                                      ; E9........
L5:
cmp rsi, 64                                 ; 4883FE40
jae L7                                      ; 0F83........
vmovdqu ymmword ptr [rdi], ymm0             ; C5FE7F07
vmovdqu ymmword ptr [r8-32], ymm0           ; C4C17E7F40E0
jmp L0                                      ; E9........
L7:
vmovdqu64 zmmword ptr [rdi], zmm0           ; 62F1FE487F07
vmovdqu64 zmmword ptr [r8-64], zmm0         ; 62D1FE487F40FF
jmp L0                                      ; E9........
L1:
L0:
vzeroupper                                  ; C5F877
ret                                         ; C3
