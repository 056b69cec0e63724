movdqu xmmword ptr [rdi], xmm0              ; F30F7F07
movdqu xmmword ptr [rdi+16], xmm0           ; F30F7F4710
movdqu xmmword ptr [rdi+32], xmm0           ; F30F7F4720
movdqu xmmword ptr [rdi+48], xmm0           ; F30F7F4730
movdqu xmmword ptr [r8-64], xmm0            ; F3410F7F40C0
movdqu xmmword ptr [r8-48], xmm0            ; F3410F7F40D0
movdqu xmmword ptr [r8-32], xmm0            ; F3410F7F40E0
movdqu xmmword ptr [r8-16], xmm0            ; F3410F7F40F0
