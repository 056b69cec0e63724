lea r8, [rdi+rsi]                           ; 4C8D0437
xor eax, eax                                ; 31C0
pxor xmm0, xmm0                             ; 660FEFC0
cmp rsi, 256                                ; 4881FE00010000
jae L0                                      ; 0F83........
cmp rsi, 128                                ; 4881FE80000000
jb L2                                       ; 0F82........
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
L2:
cmp rsi, 64                                 ; 4883FE40
jb L3                                       ; 0F82........
movdqu xmmword ptr [rdi], xmm0              ; F30F7F07
movdqu xmmword ptr [rdi+16], xmm0           ; F30F7F4710
movdqu xmmword ptr [rdi+32], xmm0           ; F30F7F4720
movdqu xmmword ptr [rdi+48], xmm0           ; F30F7F4730
movdqu xmmword ptr [r8-64], xmm0            ; F3410F7F40C0
movdqu xmmword ptr [r8-48], xmm0            ; F3410F7F40D0
movdqu xmmword ptr [r8-32], xmm0            ; F3410F7F40E0
movdqu xmmword ptr [r8-16], xmm0            ; F3410F7F40F0
jmp L1                                      ; E9........
L3:
cmp rsi, 32                                 ; 4883FE20
jb L4                                       ; 0F82........
movdqu xmmword ptr [rdi], xmm0              ; F30F7F07
movdqu xmmword ptr [rdi+16], xmm0           ; F30F7F4710
movdqu xmmword ptr [r8-32], xmm0            ; F3410F7F40E0
movdqu xmmword ptr [r8-16], xmm0            ; F3410F7F40F0
jmp L1                                      ; E9........
L4:
cmp rsi, 16                                 ; 4883FE10
jb L5                                       ; 0F82........
movdqu xmmword ptr [rdi], xmm0              ; F30F7F07
movdqu xmmword ptr [r8-16], xmm0            ; F3410F7F40F0
jmp L1                                      ; E9........
L5:
cmp rsi, 8                                  ; 4883FE08
jb L6                                       ; 0F82........
mov qword ptr [rdi], rax                    ; 488907
mov qword ptr [r8-8], rax                   ; 498940F8
jmp L1                                      ; E9........
L6:
cmp rsi, 4                                  ; 4883FE04
jb L7                                       ; 0F82........
mov dword ptr [rdi], eax                    ; 8907
mov dword ptr [r8-4], eax                   ; 418940FC
jmp L1                                      ; E9........
L7:
cmp rsi, 2                                  ; 4883FE02
jb L8                                       ; 0F82........
mov word ptr [rdi], ax                      ; 668907
mov word ptr [r8-2], ax                     ; 66418940FE
jmp L1                                      ; E9........
L8:
cmp rsi, 1                                  ; 4883FE01
jb L1                                       ; 0F82........
mov byte ptr [rdi], al                      ; 8807
mov byte ptr [r8-1], al                     ; 418840FF
jmp L1                                      ; E9........
L9:
L1:
ret                                         ; C3
L0:
cmp rsi, 4096                               ; 4881FE00100000
jae L15                                     ; 0F83........
cmp rsi, 300                                ; 4881FE2C010000
jae L16                                     ; 0F83........
jmp L10                                     ; E9........
L16:
jmp L11                                     ; E9........
L15:
cmp rsi, 65600                              ; 4881FE40000100
jae L17                                     ; 0F83........
jmp L12                                     ; E9........
L17:
cmp rsi, 1048640                            ; 4881FE40001000
jae L18                                     ; 0F83........
jmp L13                                     ; E9........
L18:
jmp L14                                     ; E9........
L10:
mov rdx, rsi                                ; 4889F2
mov rcx, rdx                                ; 4889D1
shr rcx, 3                                  ; 48C1E903
rep stos qword ptr [rdi], rax               ; F348AB
cmp rdi, r8                                 ; 4C39C7
je L19                                      ; 0F84........
mov qword ptr [r8-8], rax                   ; 498940F8
L19:
ret                                         ; C3
L11:
mov rdx, rsi                                ; 4889F2
mov r9, rdx                                 ; 4989D1
and r9, -32                                 ; 4983E1E0
add r9, rdi                                 ; 4901F9
cmp rdi, r9                                 ; 4C39CF
je L21                                      ; 0F84........
L20:
movdqu xmmword ptr [rdi], xmm0              ; F30F7F07
movdqu xmmword ptr [rdi+16], xmm0           ; F30F7F4710
add rdi, 32                                 ; 4883C720
cmp rdi, r9                                 ; 4C39CF
short jne L20                               ; 75EE
L21:
mov r9, rdx                                 ; 4989D1
and r9, 16                                  ; 4983E110
add r9, rdi                                 ; 4901F9
cmp rdi, r9                                 ; 4C39CF
je L23                                      ; 0F84........
L22:
movdqu xmmword ptr [rdi], xmm0              ; F30F7F07
add rdi, 16                                 ; 4883C710
cmp rdi, r9                                 ; 4C39CF
short jne L22                               ; 75F3
L23:
cmp rdi, r8                                 ; 4C39C7
je L24                                      ; 0F84........
movdqu xmmword ptr [r8-16], xmm0            ; F3410F7F40F0
L24:
ret                                         ; C3
L12:
mov rdx, rsi                                ; 4889F2
mov r9, rdx                                 ; 4989D1
and r9, -32                                 ; 4983E1E0
add r9, rdi                                 ; 4901F9
cmp rdi, r9                                 ; 4C39CF
je L26                                      ; 0F84........
L25:
mov qword ptr [rdi], rax                    ; 488907
mov qword ptr [rdi+8], rax                  ; 48894708
mov qword ptr [rdi+16], rax                 ; 48894710
mov qword ptr [rdi+24], rax                 ; 48894718
add rdi, 32                                 ; 4883C720
cmp rdi, r9                                 ; 4C39CF
short jne L25                               ; 75E8
L26:
mov r9, rdx                                 ; 4989D1
and r9, 24                                  ; 4983E118
add r9, rdi                                 ; 4901F9
cmp rdi, r9                                 ; 4C39CF
je L28                                      ; 0F84........
L27:
mov qword ptr [rdi], rax                    ; 488907
add rdi, 8                                  ; 4883C708
cmp rdi, r9                                 ; 4C39CF
short jne L27                               ; 75F4
L28:
cmp rdi, r8                                 ; 4C39C7
je L29                                      ; 0F84........
mov qword ptr [r8-8], rax                   ; 498940F8
L29:
ret                                         ; C3
L13:
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
L30:
mov rdx, rsi                                ; 4889F2
cmp rdx, r10                                ; 4C39D2
cmova rdx, r10                              ; 490F47D2
sub rsi, rdx                                ; 4829D6
mov r9, rdx                                 ; 4989D1
and r9, -64                                 ; 4983E1C0
add r9, rdi                                 ; 4901F9
cmp rdi, r9                                 ; 4C39CF
je L33                                      ; 0F84........
L32:
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
short jne L32                               ; 75D0
L33:
mov r9, rdx                                 ; 4989D1
and r9, 56                                  ; 4983E138
add r9, rdi                                 ; 4901F9
cmp rdi, r9                                 ; 4C39CF
je L35                                      ; 0F84........
L34:
movnti qword ptr [rdi], rax                 ; 480FC307
add rdi, 8                                  ; 4883C708
cmp rdi, r9                                 ; 4C39CF
short jne L34                               ; 75F3
L35:
test rsi, rsi                               ; 4885F6
jz L31                                      ; 0F84........
sfence                                      ; 0FAEF8
short jmp L30                               ; EB82
L31:
cmp rdi, r8                                 ; 4C39C7
je L36                                      ; 0F84........
mov qword ptr [r8-8], rax                   ; 498940F8
L36:
sfence                                      ; 0FAEF8
ret                                         ; C3
L14:
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
je L38                                      ; 0F84........
L37:
movntdq xmmword ptr [rdi], xmm0             ; 660FE707
movntdq xmmword ptr [rdi+16], xmm0          ; 660FE74710
movntdq xmmword ptr [rdi+32], xmm0          ; 660FE74720
movntdq xmmword ptr [rdi+48], xmm0          ; 660FE74730
add rdi, 64                                 ; 4883C740
cmp rdi, r9                                 ; 4C39CF
short jne L37                               ; 75E4
L38:
mov r9, rdx                                 ; 4989D1
and r9, 48                                  ; 4983E130
add r9, rdi                                 ; 4901F9
cmp rdi, r9                                 ; 4C39CF
je L40                                      ; 0F84........
L39:
movntdq xmmword ptr [rdi], xmm0             ; 660FE707
add rdi, 16                                 ; 4883C710
cmp rdi, r9                                 ; 4C39CF
short jne L39                               ; 75F3
L40:
cmp rdi, r8                                 ; 4C39C7
je L41                                      ; 0F84........
movdqu xmmword ptr [r8-16], xmm0            ; F3410F7F40F0
L41:
sfence                                      ; 0FAEF8
ret                                         ; C3
