mov r9, rdx                                 ; 4989D1
and r9, -256                                ; 4981E100FFFFFF
add r9, rdi                                 ; 4901F9
cmp rdi, r9                                 ; 4C39CF
je L1                                       ; 0F84........
L0:
lea rax, [rdi]                              ; 488D07
clzero                                      ; 0F01FC
lea rax, [rdi+64]                           ; 488D4740
clzero                                      ; 0F01FC
lea rax, [rdi+128]                          ; 488D8780000000
clzero                                      ; 0F01FC
lea rax, [rdi+192]                          ; 488D87C0000000
clzero                                      ; 0F01FC
add rdi, 256                                ; 4881C700010000
cmp rdi, r9                                 ; 4C39CF
short jne L0                                ; 75D3
L1:
mov r9, rdx                                 ; 4989D1
and r9, 192                                 ; 4981E1C0000000
add r9, rdi                                 ; 4901F9
cmp rdi, r9                                 ; 4C39CF
je L3                                       ; 0F84........
L2:
lea rax, [rdi]                              ; 488D07
clzero                                      ; 0F01FC
add rdi, 64                                 ; 4883C740
cmp rdi, r9                                 ; 4C39CF
short jne L2                                ; 75F1
L3:
