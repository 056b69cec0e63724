mov qword ptr [rdi], rax                    ; 488907
mov qword ptr [rdi+8], rax                  ; 48894708
add rdi, 15                                 ; 4883C70F
and rdi, -16                                ; 4883E7F0
mov rsi, r8                                 ; 4C89C6
sub rsi, rdi                                ; 4829FE
