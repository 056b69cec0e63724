lea r8, [rdi+rsi]                           ; 4C8D0437
xor eax, eax                                ; 31C0
vpxor xmm0, xmm0, xmm0                      ; C5F9EFC0
cmp rsi, 257                                ; 4881FE01010000
jae L0                                      ; 0F83........
cmp rsi, 8                                  ; 4883FE08
jae L2                                      ; 0F83........
cmp rsi, 2                                  ; 4883FE02
jae L3                                      ; 0F83........
cmp rsi, 1                                  ; 4883FE01
jb L1                                       ; 0F82........
mov byte ptr [rdi], al                      ; 8807
mov byte ptr [r8-1], al                     ; 418840FF
jmp L1                                      ; E9........
L3:
cmp rsi, 4                                  ; 4883FE04
jae L4                                      ; 0F83........
mov word ptr [rdi], ax                      ; 668907
mov word ptr [r8-2], ax                     ; 66418940FE
jmp L1                                      ; E9........
L4:
mov dword ptr [rdi], eax                    ; 8907
mov dword ptr [r8-4], eax                   ; 418940FC
jmp L1                                      ; E9........
L2:
cmp rsi, 32                                 ; 4883FE20
jae L5                                      ; 0F83........
cmp rsi, 16                                 ; 4883FE10
jae L6                                      ; 0F83........
mov qword ptr [rdi], rax                    ; 488907
mov qword ptr [r8-8], rax                   ; 498940F8
jmp L1                                      ; E9........
L6:
vmovdqu xmmword ptr [rdi], xmm0             ; C5FA7F07
vmovdqu xmmword ptr [r8-16], xmm0           ; C4C17A7F40F0
jmp L1                                      ; E9........
L5:
cmp rsi, 64                                 ; 4883FE40
jae L7                                      ; 0F83........
vmovdqu ymmword ptr [rdi], ymm0             ; C5FE7F07
vmovdqu ymmword ptr [r8-32], ymm0           ; C4C17E7F40E0
jmp L1                                      ; E9........
L7:
cmp rsi, 128                                ; 4881FE80000000
jae L8                                      ; 0F83........
vmovdqu ymmword ptr [rdi], ymm0             ; C5FE7F07
vmovdqu ymmword ptr [rdi+32], ymm0          ; C5FE7F4720
vmovdqu ymmword ptr [r8-64], ymm0           ; C4C17E7F40C0
vmovdqu ymmword ptr [r8-32], ymm0           ; C4C17E7F40E0
jmp L1                                      ; E9........
L8:
vmovdqu ymmword ptr [rdi], ymm0             ; C5FE7F07
vmovdqu ymmword ptr [rdi+32], ymm0          ; C5FE7F4720
vmovdqu ymmword ptr [rdi+64], ymm0          ; C5FE7F4740
vmovdqu ymmword ptr [rdi+96], ymm0          ; C5FE7F4760
vmovdqu ymmword ptr [r8-128], ymm0          ; C4C17E7F4080
vmovdqu ymmword ptr [r8-96], ymm0           ; C4C17E7F40A0
vmovdqu ymmword ptr [r8-64], ymm0           ; C4C17E7F40C0
vmovdqu ymmword ptr [r8-32], ymm0           ; C4C17E7F40E0
jmp L1                                      ; E9........
L1:
vzeroupper                                  ; C5F877
ret                                         ; C3
L0:
cmp rsi, 4096                               ; 4881FE00100000
jae L12                                     ; 0F83........
jmp L9                                      ; E9........
L12:
mov r11, 3221225472                         ; 49BB000000C000000000
cmp rsi, r11                                ; 4C39DE
jae L13                                     ; 0F83........
jmp L10                                     ; E9........
L13:
jmp L11                                     ; E9........
L9:
vmovdqu xmmword ptr [rdi], xmm0             ; C5FA7F07
vmovdqu xmmword ptr [rdi+16], xmm0          ; C5FA7F4710
vmovdqu xmmword ptr [rdi+32], xmm0          ; C5FA7F4720
vmovdqu xmmword ptr [rdi+48], xmm0          ; C5FA7F4730
add rdi, 63                                 ; 4883C73F
and rdi, -64                                ; 4883E7C0
mov rsi, r8                                 ; 4C89C6
sub rsi, rdi                                ; 4829FE
mov rdx, rsi                                ; 4889F2
mov r9, rdx                                 ; 4989D1
and r9, -64                                 ; 4983E1C0
add r9, rdi                                 ; 4901F9
cmp rdi, r9                                 ; 4C39CF
je L15                                      ; 0F84........
L14:
vmovdqu xmmword ptr [rdi], xmm0             ; C5FA7F07
vmovdqu xmmword ptr [rdi+16], xmm0          ; C5FA7F4710
vmovdqu xmmword ptr [rdi+32], xmm0          ; C5FA7F4720
vmovdqu xmmword ptr [rdi+48], xmm0          ; C5FA7F4730
add rdi, 64                                 ; 4883C740
cmp rdi, r9                                 ; 4C39CF
short jne L14                               ; 75E4
L15:
mov r9, rdx                                 ; 4989D1
and r9, 48                                  ; 4983E130
add r9, rdi                                 ; 4901F9
cmp rdi, r9                                 ; 4C39CF
je L17                                      ; 0F84........
L16:
vmovdqu xmmword ptr [rdi], xmm0             ; C5FA7F07
add rdi, 16                                 ; 4883C710
cmp rdi, r9                                 ; 4C39CF
short jne L16                               ; 75F3
L17:
cmp rdi, r8                                 ; 4C39C7
je L18                                      ; 0F84........
vmovdqu xmmword ptr [r8-16], xmm0           ; C4C17A7F40F0
L18:
vzeroupper                                  ; C5F877
ret                                         ; C3
L10:
vmovdqu ymmword ptr [rdi], ymm0             ; C5FE7F07
vmovdqu ymmword ptr [rdi+32], ymm0          ; C5FE7F4720
add rdi, 63                                 ; 4883C73F
and rdi, -64                                ; 4883E7C0
mov rsi, r8                                 ; 4C89C6
sub rsi, rdi                                ; 4829FE
mov rdx, rsi                                ; 4889F2
mov r9, rdx                                 ; 4989D1
and r9, -128                                ; 4983E180
add r9, rdi                                 ; 4901F9
cmp rdi, r9                                 ; 4C39CF
je L20                                      ; 0F84........
L19:
vmovntdq ymmword ptr [rdi], ymm0            ; C5FDE707
vmovntdq ymmword ptr [rdi+32], ymm0         ; C5FDE74720
vmovntdq ymmword ptr [rdi+64], ymm0         ; C5FDE74740
vmovntdq ymmword ptr [rdi+96], ymm0         ; C5FDE74760
add rdi, 128                                ; 4881C780000000
cmp rdi, r9                                 ; 4C39CF
short jne L19                               ; 75E1
L20:
mov r9, rdx                                 ; 4989D1
and r9, 96                                  ; 4983E160
add r9, rdi                                 ; 4901F9
cmp rdi, r9                                 ; 4C39CF
je L22                                      ; 0F84........
L21:
vmovntdq ymmword ptr [rdi], ymm0            ; C5FDE707
add rdi, 32                                 ; 4883C720
cmp rdi, r9                                 ; 4C39CF
short jne L21                               ; 75F3
L22:
cmp rdi, r8                                 ; 4C39C7
je L23                                      ; 0F84........
vmovdqu ymmword ptr [r8-32], ymm0           ; C4C17E7F40E0
L23:
sfence                                      ; 0FAEF8
vzeroupper                                  ; C5F877
ret                                         ; C3
L11:
vmovdqu xmmword ptr [rdi], xmm0             ; C5FA7F07
vmovdqu xmmword ptr [rdi+16], xmm0          ; C5FA7F4710
vmovdqu xmmword ptr [rdi+32], xmm0          ; C5FA7F4720
vmovdqu xmmword ptr [rdi+48], xmm0          ; C5FA7F4730
add rdi, 63                                 ; 4883C73F
and rdi, -64                                ; 4883E7C0
mov rsi, r8                                 ; 4C89C6
sub rsi, rdi                                ; 4829FE
mov rdx, rsi                                ; 4889F2
mov r9, rdx                                 ; 4989D1
and r9, -64                                 ; 4983E1C0
add r9, rdi                                 ; 4901F9
cmp rdi, r9                                 ; 4C39CF
je L25                                      ; 0F84........
L24:
lea rax, [rdi]                              ; 488D07
clzero                                      ; 0F01FC
add rdi, 64                                 ; 4883C740
cmp rdi, r9                                 ; 4C39CF
short jne L24                               ; 75F1
L25:
cmp rdi, r8                                 ; 4C39C7
je L26                                      ; 0F84........
vmovdqu xmmword ptr [r8-64], xmm0           ; C4C17A7F40C0
vmovdqu xmmword ptr [r8-48], xmm0           ; C4C17A7F40D0
vmovdqu xmmword ptr [r8-32], xmm0           ; C4C17A7F40E0
vmovdqu xmmword ptr [r8-16], xmm0           ; C4C17A7F40F0
L26:
sfence                                      ; 0FAEF8
vzeroupper                                  ; C5F877
ret                                         ; C3
