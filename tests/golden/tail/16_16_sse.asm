cmp rdi, r8                                 ; 4C39C7
je L0                                       ; 0F84........
movdqu xmmword ptr [r8-16], xmm0            ; F3410F7F40F0
L0:
