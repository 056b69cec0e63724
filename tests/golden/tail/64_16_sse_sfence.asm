cmp rdi, r8                                 ; 4C39C7
je L0                                       ; 0F84........
movdqu xmmword ptr [r8-64], xmm0            ; F3410F7F40C0
movdqu xmmword ptr [r8-48], xmm0            ; F3410F7F40D0
movdqu xmmword ptr [r8-32], xmm0            ; F3410F7F40E0
movdqu xmmword ptr [r8-16], xmm0            ; F3410F7F40F0
L0:
sfence                                      ; 0FAEF8
