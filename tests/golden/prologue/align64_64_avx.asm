vmovdqu64 zmmword ptr [rdi], zmm0           ; 62F1FE487F07
add rdi, 63                                 ; 4883C73F
and rdi, -64                                ; 4883E7C0
mov rsi, r8                                 ; 4C89C6
sub rsi, rdi                                ; 4829FE
