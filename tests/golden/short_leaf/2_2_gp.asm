mov word ptr [rdi], ax                      ; 668907
mov word ptr [r8-2], ax                     ; 66418940FE
