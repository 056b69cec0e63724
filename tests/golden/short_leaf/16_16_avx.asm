vmovdqu xmmword ptr [rdi], xmm0             ; C5FA7F07
vmovdqu xmmword ptr [r8-16], xmm0           ; C4C17A7F40F0
