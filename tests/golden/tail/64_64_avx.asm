cmp rdi, r8                                 ; 4C39C7
je L0                                       ; 0F84........
vmovdqu64 zmmword ptr [r8-64], zmm0         ; 62D1FE487F40FF
L0:
