lea r8, [rdi+rsi]                           ; 4C8D0437
xor eax, eax                                ; 31C0
vpxor xmm0, xmm0, xmm0                      ; C5F9EFC0
; the short tree: n up to 2*S, else on to the main path
L1:
; the main path
L0:
vzeroupper                                  ; C5F877
ret                                         ; C3
