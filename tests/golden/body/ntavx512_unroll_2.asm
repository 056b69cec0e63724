mov r9, rdx                                 ; 4989D1
and r9, -128                                ; 4983E180
add r9, rdi                                 ; 4901F9
cmp rdi, r9                                 ; 4C39CF
je L1                                       ; 0F84........
L0:
vmovntdq zmmword ptr [rdi], zmm0            ; 62F17D48E707
vmovntdq zmmword ptr [rdi+64], zmm0         ; 62F17D48E74701
add rdi, 128                                ; 4881C780000000
cmp rdi, r9                                 ; 4C39CF
short jne L0                                ; 75E7
L1:
mov r9, rdx                                 ; 4989D1
and r9, 64                                  ; 4983E140
add r9, rdi                                 ; 4901F9
cmp rdi, r9                                 ; 4C39CF
je L3                                       ; 0F84........
L2:
vmovntdq zmmword ptr [rdi], zmm0            ; 62F17D48E707
add rdi, 64                                 ; 4883C740
cmp rdi, r9                                 ; 4C39CF
short jne L2                                ; 75F1
L3:
