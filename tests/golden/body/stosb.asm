mov rcx, rdx                                ; 4889D1
rep stos byte ptr [rdi], al                 ; F3AA
