mov qword ptr [rdi], rax                    ; 488907
mov qword ptr [rdi+8], rax                  ; 48894708
mov qword ptr [rdi+16], rax                 ; 48894710
mov qword ptr [rdi+24], rax                 ; 48894718
mov qword ptr [rdi+32], rax                 ; 48894720
mov qword ptr [rdi+40], rax                 ; 48894728
mov qword ptr [rdi+48], rax                 ; 48894730
mov qword ptr [rdi+56], rax                 ; 48894738
add rdi, 63                                 ; 4883C73F
and rdi, -64                                ; 4883E7C0
mov rsi, r8                                 ; 4C89C6
sub rsi, rdi                                ; 4829FE
