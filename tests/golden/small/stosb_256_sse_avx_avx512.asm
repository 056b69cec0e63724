cmp rsi, 257                                ; 4881FE01010000
jae L0                                      ; 0F83........
mov rcx, rsi                                ; 4889F1
xor eax, eax                                ; 31C0
rep stos byte ptr [rdi], al                 ; F3AA
ret                                         ; C3
L0:
