lea r8, [rdi+rsi]                           ; 4C8D0437
xor eax, eax                                ; 31C0
cmp rsi, 4096                               ; 4881FE00100000
jae L0                                      ; 0F83........
cmp rsi, 300                                ; 4881FE2C010000
jae L1                                      ; 0F83........
; main path of stosq
ret                                         ; C3
L1:
pxor xmm0, xmm0                             ; 660FEFC0
; main path of sse:unroll=2
ret                                         ; C3
L0:
cmp rsi, 65600                              ; 4881FE40000100
jae L2                                      ; 0F83........
; main path of mov:unroll=4
ret                                         ; C3
L2:
cmp rsi, 1048640                            ; 4881FE40001000
jae L3                                      ; 0F83........
; main path of movnti:chunk=4K,fence=chunk
ret                                         ; C3
L3:
pxor xmm0, xmm0                             ; 660FEFC0
; main path of ntsse
ret                                         ; C3
