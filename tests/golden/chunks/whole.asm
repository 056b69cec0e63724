mov rdx, rsi                                ; 4889F2
; the body: one chunk's stores
