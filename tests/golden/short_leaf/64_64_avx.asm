vmovdqu64 zmmword ptr [rdi], zmm0           ; 62F1FE487F07
vmovdqu64 zmmword ptr [r8-64], zmm0         ; 62D1FE487F40FF
