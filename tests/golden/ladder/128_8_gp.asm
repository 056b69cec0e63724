lea r8, [rdi+rsi]                           ; 4C8D0437
xor eax, eax                                ; 31C0
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
mov qword ptr [rdi], rax                    ; 488907
mov qword ptr [rdi+8], rax                  ; 48894708
mov qword ptr [r8-16], rax                  ; 498940F0
mov qword ptr [r8-8], rax                   ; 498940F8
jmp L0                                      ; E9........
L5:
cmp rsi, 64                                 ; 4883FE40
jae L7                                      ; 0F83........
mov qword ptr [rdi], rax                    ; 488907
mov qword ptr [rdi+8], rax                  ; 48894708
mov qword ptr [rdi+16], rax                 ; 48894710
mov qword ptr [rdi+24], rax                 ; 48894718
mov qword ptr [r8-32], rax                  ; 498940E0
mov qword ptr [r8-24], rax                  ; 498940E8
mov qword ptr [r8-16], rax                  ; 498940F0
mov qword ptr [r8-8], rax                   ; 498940F8
jmp L0                                      ; E9........
L7:
mov qword ptr [rdi], rax                    ; 488907
mov qword ptr [rdi+8], rax                  ; 48894708
mov qword ptr [rdi+16], rax                 ; 48894710
mov qword ptr [rdi+24], rax                 ; 48894718
mov qword ptr [rdi+32], rax                 ; 48894720
mov qword ptr [rdi+40], rax                 ; 48894728
mov qword ptr [rdi+48], rax                 ; 48894730
mov qword ptr [rdi+56], rax                 ; 48894738
mov qword ptr [r8-64], rax                  ; 498940C0
mov qword ptr [r8-56], rax                  ; 498940C8
mov qword ptr [r8-48], rax                  ; 498940D0
mov qword ptr [r8-40], rax                  ; 498940D8
mov qword ptr [r8-32], rax                  ; 498940E0
mov qword ptr [r8-24], rax                  ; 498940E8
mov qword ptr [r8-16], rax                  ; 498940F0
mov qword ptr [r8-8], rax                   ; 498940F8
jmp L0                                      ; E9........
L1:
L0:
ret                                         ; C3
