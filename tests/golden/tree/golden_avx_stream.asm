lea r8, [rdi+rsi]                           ; 4C8D0437
xor eax, eax                                ; 31C0
cmp rsi, 4096                               ; 4881FE00100000
jae L0                                      ; 0F83........
vpxor xmm0, xmm0, xmm0                      ; C5F9EFC0
; main path of sse:align=64
vzeroupper                                  ; C5F877
ret                                         ; C3
L0:
mov r11, 3221225472                         ; 49BB000000C000000000
cmp rsi, r11                                ; 4C39DE
jae L1                                      ; 0F83........
vpxor xmm0, xmm0, xmm0                      ; C5F9EFC0
; main path of ntavx2:unroll=4
vzeroupper                                  ; C5F877
ret                                         ; C3
L1:
vpxor xmm0, xmm0, xmm0                      ; C5F9EFC0
; main path of clzero
vzeroupper                                  ; C5F877
ret                                         ; C3
