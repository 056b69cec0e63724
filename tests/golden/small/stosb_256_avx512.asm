cmp rsi, 128                                ; 4881FE80000000
jae L1                                      ; 0F83........
cmp rsi, 64                                 ; 4883FE40
je L2                                       ; 0F84........
mov rcx, rsi                                ; 4889F1
xor eax, eax                                ; 31C0
rep stos byte ptr [rdi], al                 ; F3AA
ret                                         ; C3
align 64
L2:
vpxord xmm16, xmm16, xmm16                  ; 62A17D00EFC0
vmovdqu64 ymmword ptr [rdi], ymm16          ; 62E1FE287F07
vmovdqu64 ymmword ptr [rdi+rsi-32], ymm16   ; 62E1FE287F4437FF
ret                                         ; C3
align 64
L1:
cmp rsi, 257                                ; 4881FE01010000
jae L0                                      ; 0F83........
vpxord xmm16, xmm16, xmm16                  ; 62A17D00EFC0
vmovdqu64 ymmword ptr [rdi], ymm16          ; 62E1FE287F07
vmovdqu64 ymmword ptr [rdi+32], ymm16       ; 62E1FE287F4701
vmovdqu64 ymmword ptr [rdi+64], ymm16       ; 62E1FE287F4702
vmovdqu64 ymmword ptr [rdi+96], ymm16       ; 62E1FE287F4703
vmovdqu64 ymmword ptr [rdi+rsi-128], ymm16  ; 62E1FE287F4437FC
vmovdqu64 ymmword ptr [rdi+rsi-96], ymm16   ; 62E1FE287F4437FD
vmovdqu64 ymmword ptr [rdi+rsi-64], ymm16   ; 62E1FE287F4437FE
vmovdqu64 ymmword ptr [rdi+rsi-32], ymm16   ; 62E1FE287F4437FF
ret                                         ; C3
L0:
