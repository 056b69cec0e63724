lea r8, [rdi+rsi]                           ; 4C8D0437
xor eax, eax                                ; 31C0
pxor xmm0, xmm0                             ; 660FEFC0
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
movdqu xmmword ptr [rdi], xmm0              ; F30F7F07
movdqu xmmword ptr [r8-16], xmm0            ; F3410F7F40F0
jmp L1                                      ; E9........
L5:
cmp rsi, 64                                 ; 4883FE40
jae L7                                      ; 0F83........
movdqu xmmword ptr [rdi], xmm0              ; F30F7F07
movdqu xmmword ptr [rdi+16], xmm0           ; F30F7F4710
movdqu xmmword ptr [r8-32], xmm0            ; F3410F7F40E0
movdqu xmmword ptr [r8-16], xmm0            ; F3410F7F40F0
jmp L1                                      ; E9........
L7:
cmp rsi, 128                                ; 4881FE80000000
jae L8                                      ; 0F83........
movdqu xmmword ptr [rdi], xmm0              ; F30F7F07
movdqu xmmword ptr [rdi+16], xmm0           ; F30F7F4710
movdqu xmmword ptr [rdi+32], xmm0           ; F30F7F4720
movdqu xmmword ptr [rdi+48], xmm0           ; F30F7F4730
movdqu xmmword ptr [r8-64], xmm0            ; F3410F7F40C0
movdqu xmmword ptr [r8-48], xmm0            ; F3410F7F40D0
movdqu xmmword ptr [r8-32], xmm0            ; F3410F7F40E0
movdqu xmmword ptr [r8-16], xmm0            ; F3410F7F40F0
jmp L1                                      ; E9........
L8:
movdqu xmmword ptr [rdi], xmm0              ; F30F7F07
movdqu xmmword ptr [rdi+16], xmm0           ; F30F7F4710
movdqu xmmword ptr [rdi+32], xmm0           ; F30F7F4720
movdqu xmmword ptr [rdi+48], xmm0           ; F30F7F4730
movdqu xmmword ptr [rdi+64], xmm0           ; F30F7F4740
movdqu xmmword ptr [rdi+80], xmm0           ; F30F7F4750
movdqu xmmword ptr [rdi+96], xmm0           ; F30F7F4760
movdqu xmmword ptr [rdi+112], xmm0          ; F30F7F4770
movdqu xmmword ptr [r8-128], xmm0           ; F3410F7F4080
movdqu xmmword ptr [r8-112], xmm0           ; F3410F7F4090
movdqu xmmword ptr [r8-96], xmm0            ; F3410F7F40A0
movdqu xmmword ptr [r8-80], xmm0            ; F3410F7F40B0
movdqu xmmword ptr [r8-64], xmm0            ; F3410F7F40C0
movdqu xmmword ptr [r8-48], xmm0            ; F3410F7F40D0
movdqu xmmword ptr [r8-32], xmm0            ; F3410F7F40E0
movdqu xmmword ptr [r8-16], xmm0            ; F3410F7F40F0
jmp L1                                      ; E9........
L1:
ret                                         ; C3
L0:
cmp rsi, 4096                               ; 4881FE00100000
jae L14                                     ; 0F83........
cmp rsi, 300                                ; 4881FE2C010000
jae L15                                     ; 0F83........
jmp L9                                      ; E9........
L15:
jmp L10                                     ; E9........
L14:
cmp rsi, 65600                              ; 4881FE40000100
jae L16                                     ; 0F83........
jmp L11                                     ; E9........
L16:
cmp rsi, 1048640                            ; 4881FE40001000
jae L17                                     ; 0F83........
jmp L12                                     ; E9........
L17:
jmp L13                                     ; E9........
L9:
mov rdx, rsi                                ; 4889F2
mov rcx, rdx                                ; 4889D1
shr rcx, 3                                  ; 48C1E903
rep stos qword ptr [rdi], rax               ; F348AB
cmp rdi, r8                                 ; 4C39C7
je L18                                      ; 0F84........
mov qword ptr [r8-8], rax                   ; 498940F8
L18:
ret                                         ; C3
L10:
mov rdx, rsi                                ; 4889F2
mov r9, rdx                                 ; 4989D1
and r9, -32                                 ; 4983E1E0
add r9, rdi                                 ; 4901F9
cmp rdi, r9                                 ; 4C39CF
je L20                                      ; 0F84........
L19:
movdqu xmmword ptr [rdi], xmm0              ; F30F7F07
movdqu xmmword ptr [rdi+16], xmm0           ; F30F7F4710
add rdi, 32                                 ; 4883C720
cmp rdi, r9                                 ; 4C39CF
short jne L19                               ; 75EE
L20:
mov r9, rdx                                 ; 4989D1
and r9, 16                                  ; 4983E110
add r9, rdi                                 ; 4901F9
cmp rdi, r9                                 ; 4C39CF
je L22                                      ; 0F84........
L21:
movdqu xmmword ptr [rdi], xmm0              ; F30F7F07
add rdi, 16                                 ; 4883C710
cmp rdi, r9                                 ; 4C39CF
short jne L21                               ; 75F3
L22:
cmp rdi, r8                                 ; 4C39C7
je L23                                      ; 0F84........
movdqu xmmword ptr [r8-16], xmm0            ; F3410F7F40F0
L23:
ret                                         ; C3
L11:
mov rdx, rsi                                ; 4889F2
mov r9, rdx                                 ; 4989D1
and r9, -32                                 ; 4983E1E0
add r9, rdi                                 ; 4901F9
cmp rdi, r9                                 ; 4C39CF
je L25                                      ; 0F84........
L24:
mov qword ptr [rdi], rax                    ; 488907
mov qword ptr [rdi+8], rax                  ; 48894708
mov qword ptr [rdi+16], rax                 ; 48894710
mov qword ptr [rdi+24], rax                 ; 48894718
add rdi, 32                                 ; 4883C720
cmp rdi, r9                                 ; 4C39CF
short jne L24                               ; 75E8
L25:
mov r9, rdx                                 ; 4989D1
and r9, 24                                  ; 4983E118
add r9, rdi                                 ; 4901F9
cmp rdi, r9                                 ; 4C39CF
je L27                                      ; 0F84........
L26:
mov qword ptr [rdi], rax                    ; 488907
add rdi, 8                                  ; 4883C708
cmp rdi, r9                                 ; 4C39CF
short jne L26                               ; 75F4
L27:
cmp rdi, r8                                 ; 4C39C7
je L28                                      ; 0F84........
mov qword ptr [r8-8], rax                   ; 498940F8
L28:
ret                                         ; C3
L12:
mov qword ptr [rdi], rax                    ; 488907
mov qword ptr [rdi+8], rax                  ; 48894708
mov qword ptr [rdi+16], rax                 ; 48894710
mov qword ptr [rdi+24], rax                 ; 48894718
mov qword ptr [rdi+32], rax                 ; 48894720
mov qword ptr [rdi+40], rax                 ; 48894728
mov qword ptr [rdi+48], rax                 ; 48894730
mov qword ptr [rdi+56], rax                 ; 48894738
add rdi, 63                                 ; 4883C73F
and rdi, -64                                ; 4883E7C0
mov rsi, r8                                 ; 4C89C6
sub rsi, rdi                                ; 4829FE
mov r10, 4096                               ; 49C7C200100000
L29:
mov rdx, rsi                                ; 4889F2
cmp rdx, r10                                ; 4C39D2
cmova rdx, r10                              ; 490F47D2
sub rsi, rdx                                ; 4829D6
mov r9, rdx                                 ; 4989D1
and r9, -64                                 ; 4983E1C0
add r9, rdi                                 ; 4901F9
cmp rdi, r9                                 ; 4C39CF
je L32                                      ; 0F84........
L31:
movnti qword ptr [rdi], rax                 ; 480FC307
movnti qword ptr [rdi+8], rax               ; 480FC34708
movnti qword ptr [rdi+16], rax              ; 480FC34710
movnti qword ptr [rdi+24], rax              ; 480FC34718
movnti qword ptr [rdi+32], rax              ; 480FC34720
movnti qword ptr [rdi+40], rax              ; 480FC34728
movnti qword ptr [rdi+48], rax              ; 480FC34730
movnti qword ptr [rdi+56], rax              ; 480FC34738
add rdi, 64                                 ; 4883C740
cmp rdi, r9                                 ; 4C39CF
short jne L31                               ; 75D0
L32:
mov r9, rdx                                 ; 4989D1
and r9, 56                                  ; 4983E138
add r9, rdi                                 ; 4901F9
cmp rdi, r9                                 ; 4C39CF
je L34                                      ; 0F84........
L33:
movnti qword ptr [rdi], rax                 ; 480FC307
add rdi, 8                                  ; 4883C708
cmp rdi, r9                                 ; 4C39CF
short jne L33                               ; 75F3
L34:
test rsi, rsi                               ; 4885F6
jz L30                                      ; 0F84........
sfence                                      ; 0FAEF8
short jmp L29                               ; EB82
L30:
cmp rdi, r8                                 ; 4C39C7
je L35                                      ; 0F84........
mov qword ptr [r8-8], rax                   ; 498940F8
L35:
sfence                                      ; 0FAEF8
ret                                         ; C3
L13:
movdqu xmmword ptr [rdi], xmm0              ; F30F7F07
movdqu xmmword ptr [rdi+16], xmm0           ; F30F7F4710
movdqu xmmword ptr [rdi+32], xmm0           ; F30F7F4720
movdqu xmmword ptr [rdi+48], xmm0           ; F30F7F4730
add rdi, 63                                 ; 4883C73F
and rdi, -64                                ; 4883E7C0
mov rsi, r8                                 ; 4C89C6
sub rsi, rdi                                ; 4829FE
mov rdx, rsi                                ; 4889F2
mov r9, rdx                                 ; 4989D1
and r9, -64                                 ; 4983E1C0
add r9, rdi                                 ; 4901F9
cmp rdi, r9                                 ; 4C39CF
je L37                                      ; 0F84........
L36:
movntdq xmmword ptr [rdi], xmm0             ; 660FE707
movntdq xmmword ptr [rdi+16], xmm0          ; 660FE74710
movntdq xmmword ptr [rdi+32], xmm0          ; 660FE74720
movntdq xmmword ptr [rdi+48], xmm0          ; 660FE74730
add rdi, 64                                 ; 4883C740
cmp rdi, r9                                 ; 4C39CF
short jne L36                               ; 75E4
L37:
mov r9, rdx                                 ; 4989D1
and r9, 48                                  ; 4983E130
add r9, rdi                                 ; 4901F9
cmp rdi, r9                                 ; 4C39CF
je L39                                      ; 0F84........
L38:
movntdq xmmword ptr [rdi], xmm0             ; 660FE707
add rdi, 16                                 ; 4883C710
cmp rdi, r9                                 ; 4C39CF
short jne L38                               ; 75F3
L39:
cmp rdi, r8                                 ; 4C39C7
je L40                                      ; 0F84........
movdqu xmmword ptr [r8-16], xmm0            ; F3410F7F40F0
L40:
sfence                                      ; 0FAEF8
ret                                         ; C3
