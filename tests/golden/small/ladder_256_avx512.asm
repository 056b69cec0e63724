cmp rsi, 1                                  ; 4883FE01
jae L1                                      ; 0F83........
ret                                         ; C3
align 64
L1:
cmp rsi, 3                                  ; 4883FE03
jae L2                                      ; 0F83........
mov byte ptr [rdi], 0                       ; C60700
mov byte ptr [rdi+rsi-1], 0                 ; C64437FF00
ret                                         ; C3
align 64
L2:
cmp rsi, 5                                  ; 4883FE05
jae L3                                      ; 0F83........
mov word ptr [rdi], 0                       ; 66C7070000
mov word ptr [rdi+rsi-2], 0                 ; 66C74437FE0000
ret                                         ; C3
align 64
L3:
cmp rsi, 9                                  ; 4883FE09
jae L4                                      ; 0F83........
mov dword ptr [rdi], 0                      ; C70700000000
mov dword ptr [rdi+rsi-4], 0                ; C74437FC00000000
ret                                         ; C3
align 64
L4:
cmp rsi, 17                                 ; 4883FE11
jae L5                                      ; 0F83........
mov qword ptr [rdi], 0                      ; 48C70700000000
mov qword ptr [rdi+rsi-8], 0                ; 48C74437F800000000
ret                                         ; C3
align 64
L5:
cmp rsi, 33                                 ; 4883FE21
jae L6                                      ; 0F83........
vpxord xmm16, xmm16, xmm16                  ; 62A17D00EFC0
vmovdqu64 xmmword ptr [rdi], xmm16          ; 62E1FE087F07
vmovdqu64 xmmword ptr [rdi+rsi-16], xmm16   ; 62E1FE087F4437FF
ret                                         ; C3
align 64
L6:
cmp rsi, 65                                 ; 4883FE41
jae L7                                      ; 0F83........
vpxord xmm16, xmm16, xmm16                  ; 62A17D00EFC0
vmovdqu64 ymmword ptr [rdi], ymm16          ; 62E1FE287F07
vmovdqu64 ymmword ptr [rdi+rsi-32], ymm16   ; 62E1FE287F4437FF
ret                                         ; C3
align 64
L7:
cmp rsi, 129                                ; 4881FE81000000
jae L8                                      ; 0F83........
vpxord xmm16, xmm16, xmm16                  ; 62A17D00EFC0
vmovdqu64 ymmword ptr [rdi], ymm16          ; 62E1FE287F07
vmovdqu64 ymmword ptr [rdi+32], ymm16       ; 62E1FE287F4701
vmovdqu64 ymmword ptr [rdi+rsi-64], ymm16   ; 62E1FE287F4437FE
vmovdqu64 ymmword ptr [rdi+rsi-32], ymm16   ; 62E1FE287F4437FF
ret                                         ; C3
align 64
L8:
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
