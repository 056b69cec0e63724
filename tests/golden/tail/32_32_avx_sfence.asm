cmp rdi, r8                                 ; 4C39C7
je L0                                       ; 0F84........
vmovdqu ymmword ptr [r8-32], ymm0           ; C4C17E7F40E0
L0:
sfence                                      ; 0FAEF8
