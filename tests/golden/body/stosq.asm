mov rcx, rdx                                ; 4889D1
shr rcx, 3                                  ; 48C1E903
rep stos qword ptr [rdi], rax               ; F348AB
