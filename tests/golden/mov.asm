lea r8, [rdi+rsi]                           ; 4C8D0437
xor eax, eax                                ; 31C0
cmp rsi, 16                                 ; 4883FE10
ja L1                                       ; 0F87........
cmp rsi, 2                                  ; 4883FE02
jae L2                                      ; 0F83........
cmp rsi, 1                                  ; 4883FE01
jb L0                                       ; 0F82........
mov byte ptr [rdi], al                      ; 8807
mov byte ptr [r8-1], al                     ; 418840FF
jmp L0                                      ; E9........
L2:
cmp rsi, 4                                  ; 4883FE04
jae L3                                      ; 0F83........
mov word ptr [rdi], ax                      ; 668907
mov word ptr [r8-2], ax                     ; 66418940FE
jmp L0                                      ; E9........
L3:
cmp rsi, 8                                  ; 4883FE08
jae L4                                      ; 0F83........
mov dword ptr [rdi], eax                    ; 8907
mov dword ptr [r8-4], eax                   ; 418940FC
jmp L0                                      ; E9........
L4:
mov qword ptr [rdi], rax                    ; 488907
mov qword ptr [r8-8], rax                   ; 498940F8
jmp L0                                      ; E9........
L1:
mov rdx, rsi                                ; 4889F2
mov r9, rdx                                 ; 4989D1
and r9, -64                                 ; 4983E1C0
add r9, rdi                                 ; 4901F9
cmp rdi, r9                                 ; 4C39CF
je L6                                       ; 0F84........
L5:
mov qword ptr [rdi], rax                    ; 488907
mov qword ptr [rdi+8], rax                  ; 48894708
mov qword ptr [rdi+16], rax                 ; 48894710
mov qword ptr [rdi+24], rax                 ; 48894718
mov qword ptr [rdi+32], rax                 ; 48894720
mov qword ptr [rdi+40], rax                 ; 48894728
mov qword ptr [rdi+48], rax                 ; 48894730
mov qword ptr [rdi+56], rax                 ; 48894738
add rdi, 64                                 ; 4883C740
cmp rdi, r9                                 ; 4C39CF
short jne L5                                ; 75D8
L6:
mov r9, rdx                                 ; 4989D1
and r9, 56                                  ; 4983E138
add r9, rdi                                 ; 4901F9
cmp rdi, r9                                 ; 4C39CF
je L8                                       ; 0F84........
L7:
mov qword ptr [rdi], rax                    ; 488907
add rdi, 8                                  ; 4883C708
cmp rdi, r9                                 ; 4C39CF
short jne L7                                ; 75F4
L8:
cmp rdi, r8                                 ; 4C39C7
je L9                                       ; 0F84........
mov qword ptr [r8-8], rax                   ; 498940F8
L9:
L0:
ret                                         ; C3
