vmovdqu ymmword ptr [rdi], ymm0             ; C5FE7F07
vmovdqu ymmword ptr [rdi+32], ymm0          ; C5FE7F4720
add rdi, 63                                 ; 4883C73F
and rdi, -64                                ; 4883E7C0
mov rsi, r8                                 ; 4C89C6
sub rsi, rdi                                ; 4829FE
