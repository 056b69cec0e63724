lea rcx, [rsp-65]                           ; 488D4C24BF
and rcx, -64                                ; 4883E1C0
movdqu xmmword ptr [rcx], xmm0              ; F30F7F01
movdqu xmmword ptr [rcx+16], xmm0           ; F30F7F4110
movdqu xmmword ptr [rcx+32], xmm0           ; F30F7F4120
movdqu xmmword ptr [rcx+48], xmm0           ; F30F7F4130
mov r9, rdx                                 ; 4989D1
and r9, -64                                 ; 4983E1C0
add r9, rdi                                 ; 4901F9
cmp rdi, r9                                 ; 4C39CF
je L1                                       ; 0F84........
L0:
lea rax, [rdi]                              ; 488D07
movdir64b [rax], [rcx]                      ; 660F38F801
add rdi, 64                                 ; 4883C740
cmp rdi, r9                                 ; 4C39CF
short jne L0                                ; 75EF
L1:
