mov r10, 4096                               ; 49C7C200100000
L0:
mov rdx, rsi                                ; 4889F2
cmp rdx, r10                                ; 4C39D2
cmova rdx, r10                              ; 490F47D2
sub rsi, rdx                                ; 4829D6
; the body: one chunk's stores
test rsi, rsi                               ; 4885F6
jz L1                                       ; 0F84........
sfence                                      ; 0FAEF8
short jmp L0                                ; EBE5
L1:
