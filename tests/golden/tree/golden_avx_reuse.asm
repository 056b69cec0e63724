lea r8, [rdi+rsi]                           ; 4C8D0437
xor eax, eax                                ; 31C0
cmp rsi, 65600                              ; 4881FE40000100
jae L0                                      ; 0F83........
cmp rsi, 1000                               ; 4881FEE8030000
jae L1                                      ; 0F83........
cmp rsi, 300                                ; 4881FE2C010000
jae L2                                      ; 0F83........
; main path of mov
ret                                         ; C3
L2:
vpxor xmm0, xmm0, xmm0                      ; C5F9EFC0
; main path of sse
vzeroupper                                  ; C5F877
ret                                         ; C3
L1:
cmp rsi, 4096                               ; 4881FE00100000
jae L3                                      ; 0F83........
vpxor xmm0, xmm0, xmm0                      ; C5F9EFC0
; main path of avx2:unroll=4
vzeroupper                                  ; C5F877
ret                                         ; C3
L3:
vpxor xmm0, xmm0, xmm0                      ; C5F9EFC0
; main path of avx512
vzeroupper                                  ; C5F877
ret                                         ; C3
L0:
cmp rsi, 2147483647                         ; 4881FEFFFFFF7F
jae L4                                      ; 0F83........
cmp rsi, 1048640                            ; 4881FE40001000
jae L5                                      ; 0F83........
; main path of movnti
ret                                         ; C3
L5:
vpxor xmm0, xmm0, xmm0                      ; C5F9EFC0
; main path of ntsse:chunk=4K,fence=chunk
vzeroupper                                  ; C5F877
ret                                         ; C3
L4:
mov r11, 2147483648                         ; 49BB0000008000000000
cmp rsi, r11                                ; 4C39DE
jae L6                                      ; 0F83........
vpxor xmm0, xmm0, xmm0                      ; C5F9EFC0
; main path of ntavx2
vzeroupper                                  ; C5F877
ret                                         ; C3
L6:
mov r11, 3221225472                         ; 49BB000000C000000000
cmp rsi, r11                                ; 4C39DE
jae L7                                      ; 0F83........
vpxor xmm0, xmm0, xmm0                      ; C5F9EFC0
; main path of ntavx512
vzeroupper                                  ; C5F877
ret                                         ; C3
L7:
vpxor xmm0, xmm0, xmm0                      ; C5F9EFC0
; main path of clzero:chunk=4K,fence=chunk
vzeroupper                                  ; C5F877
ret                                         ; C3
