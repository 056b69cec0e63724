lea r8, [rdi+rsi]                           ; 4C8D0437
xor eax, eax                                ; 31C0
; the short tree: n up to 2*S, else on to the main path
L1:
; the main path
L0:
ret                                         ; C3
