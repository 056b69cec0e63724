vmovdqu ymmword ptr [rdi], ymm0             ; C5FE7F07
vmovdqu ymmword ptr [r8-32], ymm0           ; C4C17E7F40E0
