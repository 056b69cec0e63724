mov qword ptr [rdi], rax                    ; 488907
mov qword ptr [r8-8], rax                   ; 498940F8
