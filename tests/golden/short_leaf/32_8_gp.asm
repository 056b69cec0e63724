mov qword ptr [rdi], rax                    ; 488907
mov qword ptr [rdi+8], rax                  ; 48894708
mov qword ptr [rdi+16], rax                 ; 48894710
mov qword ptr [rdi+24], rax                 ; 48894718
mov qword ptr [r8-32], rax                  ; 498940E0
mov qword ptr [r8-24], rax                  ; 498940E8
mov qword ptr [r8-16], rax                  ; 498940F0
mov qword ptr [r8-8], rax                   ; 498940F8
