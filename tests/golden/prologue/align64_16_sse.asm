movdqu xmmword ptr [rdi], xmm0              ; F30F7F07
movdqu xmmword ptr [rdi+16], xmm0           ; F30F7F4710
movdqu xmmword ptr [rdi+32], xmm0           ; F30F7F4720
movdqu xmmword ptr [rdi+48], xmm0           ; F30F7F4730
add rdi, 63                                 ; 4883C73F
and rdi, -64                                ; 4883E7C0
mov rsi, r8                                 ; 4C89C6
sub rsi, rdi                                ; 4829FE
