mov byte ptr [rdi], al                      ; 8807
mov byte ptr [r8-1], al                     ; 418840FF
