cmp rdi, r8                                 ; 4C39C7
je L0                                       ; 0F84........
mov qword ptr [r8-8], rax                   ; 498940F8
L0:
sfence                                      ; 0FAEF8
