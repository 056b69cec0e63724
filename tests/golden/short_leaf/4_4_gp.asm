mov dword ptr [rdi], eax                    ; 8907
mov dword ptr [r8-4], eax                   ; 418940FC
