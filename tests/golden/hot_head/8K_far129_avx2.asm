cmp rsi, 8192                               ; 4881FE00200000
jbe L0                                      ; 0F86........
mov r11, rdi                                ; 4989FB
sub rsi, 8192                               ; 4881EE00200000
mov ecx, 129                                ; B981000000
cmp rsi, rcx                                ; 4839CE
cmovb rsi, rcx                              ; 480F42F1
mov rdi, r8                                 ; 4C89C7
sub rdi, rsi                                ; 4829F7
; the far part: the method's main path
mov rdi, r11                                ; 4C89DF
lea r8, [r11+8192]                          ; 4D8D8300200000
mov esi, 8192                               ; BE00200000
L0:
; the hot part: the main path of avx2
