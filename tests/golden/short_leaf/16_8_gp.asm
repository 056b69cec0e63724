mov qword ptr [rdi], rax                    ; 488907
mov qword ptr [rdi+8], rax                  ; 48894708
mov qword ptr [r8-16], rax                  ; 498940F0
mov qword ptr [r8-8], rax                   ; 498940F8
