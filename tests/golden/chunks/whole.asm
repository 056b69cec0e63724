mov rdx, rsi                                ; 4889F2
