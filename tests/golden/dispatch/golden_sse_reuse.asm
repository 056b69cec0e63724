cmp rsi, 257                                ; 4881FE01010000
jae L0                                      ; 0F83........
cmp rsi, 9                                  ; 4883FE09
jae L1                                      ; 0F83........
cmp rsi, 3                                  ; 4883FE03
jae L2                                      ; 0F83........
cmp rsi, 1                                  ; 4883FE01
jae L3                                      ; 0F83........
ret                                         ; C3
L3:
mov byte ptr [rdi], 0                       ; C60700
mov byte ptr [rdi+rsi-1], 0                 ; C64437FF00
ret                                         ; C3
L2:
cmp rsi, 5                                  ; 4883FE05
jae L4                                      ; 0F83........
mov word ptr [rdi], 0                       ; 66C7070000
mov word ptr [rdi+rsi-2], 0                 ; 66C74437FE0000
ret                                         ; C3
L4:
mov dword ptr [rdi], 0                      ; C70700000000
mov dword ptr [rdi+rsi-4], 0                ; C74437FC00000000
ret                                         ; C3
L1:
cmp rsi, 33                                 ; 4883FE21
jae L5                                      ; 0F83........
cmp rsi, 17                                 ; 4883FE11
jae L6                                      ; 0F83........
mov qword ptr [rdi], 0                      ; 48C70700000000
mov qword ptr [rdi+rsi-8], 0                ; 48C74437F800000000
ret                                         ; C3
L6:
pxor xmm0, xmm0                             ; 660FEFC0
movdqu xmmword ptr [rdi], xmm0              ; F30F7F07
movdqu xmmword ptr [rdi+rsi-16], xmm0       ; F30F7F4437F0
ret                                         ; C3
L5:
cmp rsi, 65                                 ; 4883FE41
jae L7                                      ; 0F83........
pxor xmm0, xmm0                             ; 660FEFC0
movdqu xmmword ptr [rdi], xmm0              ; F30F7F07
movdqu xmmword ptr [rdi+16], xmm0           ; F30F7F4710
movdqu xmmword ptr [rdi+rsi-32], xmm0       ; F30F7F4437E0
movdqu xmmword ptr [rdi+rsi-16], xmm0       ; F30F7F4437F0
ret                                         ; C3
L7:
cmp rsi, 129                                ; 4881FE81000000
jae L8                                      ; 0F83........
pxor xmm0, xmm0                             ; 660FEFC0
movdqu xmmword ptr [rdi], xmm0              ; F30F7F07
movdqu xmmword ptr [rdi+16], xmm0           ; F30F7F4710
movdqu xmmword ptr [rdi+32], xmm0           ; F30F7F4720
movdqu xmmword ptr [rdi+48], xmm0           ; F30F7F4730
movdqu xmmword ptr [rdi+rsi-64], xmm0       ; F30F7F4437C0
movdqu xmmword ptr [rdi+rsi-48], xmm0       ; F30F7F4437D0
movdqu xmmword ptr [rdi+rsi-32], xmm0       ; F30F7F4437E0
movdqu xmmword ptr [rdi+rsi-16], xmm0       ; F30F7F4437F0
ret                                         ; C3
L8:
pxor xmm0, xmm0                             ; 660FEFC0
movdqu xmmword ptr [rdi], xmm0              ; F30F7F07
movdqu xmmword ptr [rdi+16], xmm0           ; F30F7F4710
movdqu xmmword ptr [rdi+32], xmm0           ; F30F7F4720
movdqu xmmword ptr [rdi+48], xmm0           ; F30F7F4730
movdqu xmmword ptr [rdi+64], xmm0           ; F30F7F4740
movdqu xmmword ptr [rdi+80], xmm0           ; F30F7F4750
movdqu xmmword ptr [rdi+96], xmm0           ; F30F7F4760
movdqu xmmword ptr [rdi+112], xmm0          ; F30F7F4770
movdqu xmmword ptr [rdi+rsi-128], xmm0      ; F30F7F443780
movdqu xmmword ptr [rdi+rsi-112], xmm0      ; F30F7F443790
movdqu xmmword ptr [rdi+rsi-96], xmm0       ; F30F7F4437A0
movdqu xmmword ptr [rdi+rsi-80], xmm0       ; F30F7F4437B0
movdqu xmmword ptr [rdi+rsi-64], xmm0       ; F30F7F4437C0
movdqu xmmword ptr [rdi+rsi-48], xmm0       ; F30F7F4437D0
movdqu xmmword ptr [rdi+rsi-32], xmm0       ; F30F7F4437E0
movdqu xmmword ptr [rdi+rsi-16], xmm0       ; F30F7F4437F0
ret                                         ; C3
L0:
lea r8, [rdi+rsi]                           ; 4C8D0437
xor eax, eax                                ; 31C0
cmp rsi, 4096                               ; 4881FE00100000
jae L9                                      ; 0F83........
cmp rsi, 300                                ; 4881FE2C010000
jae L10                                     ; 0F83........
mov rdx, rsi                                ; 4889F2
mov rcx, rdx                                ; 4889D1
shr rcx, 3                                  ; 48C1E903
rep stos qword ptr [rdi], rax               ; F348AB
cmp rdi, r8                                 ; 4C39C7
je L11                                      ; 0F84........
mov qword ptr [r8-8], rax                   ; 498940F8
L11:
ret                                         ; C3
L10:
pxor xmm0, xmm0                             ; 660FEFC0
mov rdx, rsi                                ; 4889F2
mov r9, rdx                                 ; 4989D1
and r9, -32                                 ; 4983E1E0
add r9, rdi                                 ; 4901F9
cmp rdi, r9                                 ; 4C39CF
je L13                                      ; 0F84........
L12:
movdqu xmmword ptr [rdi], xmm0              ; F30F7F07
movdqu xmmword ptr [rdi+16], xmm0           ; F30F7F4710
add rdi, 32                                 ; 4883C720
cmp rdi, r9                                 ; 4C39CF
short jne L12                               ; 75EE
L13:
mov r9, rdx                                 ; 4989D1
and r9, 16                                  ; 4983E110
add r9, rdi                                 ; 4901F9
cmp rdi, r9                                 ; 4C39CF
je L15                                      ; 0F84........
L14:
movdqu xmmword ptr [rdi], xmm0              ; F30F7F07
add rdi, 16                                 ; 4883C710
cmp rdi, r9                                 ; 4C39CF
short jne L14                               ; 75F3
L15:
cmp rdi, r8                                 ; 4C39C7
je L16                                      ; 0F84........
movdqu xmmword ptr [r8-16], xmm0            ; F3410F7F40F0
L16:
ret                                         ; C3
L9:
cmp rsi, 65600                              ; 4881FE40000100
jae L17                                     ; 0F83........
mov rdx, rsi                                ; 4889F2
mov r9, rdx                                 ; 4989D1
and r9, -32                                 ; 4983E1E0
add r9, rdi                                 ; 4901F9
cmp rdi, r9                                 ; 4C39CF
je L19                                      ; 0F84........
L18:
mov qword ptr [rdi], rax                    ; 488907
mov qword ptr [rdi+8], rax                  ; 48894708
mov qword ptr [rdi+16], rax                 ; 48894710
mov qword ptr [rdi+24], rax                 ; 48894718
add rdi, 32                                 ; 4883C720
cmp rdi, r9                                 ; 4C39CF
short jne L18                               ; 75E8
L19:
mov r9, rdx                                 ; 4989D1
and r9, 24                                  ; 4983E118
add r9, rdi                                 ; 4901F9
cmp rdi, r9                                 ; 4C39CF
je L21                                      ; 0F84........
L20:
mov qword ptr [rdi], rax                    ; 488907
add rdi, 8                                  ; 4883C708
cmp rdi, r9                                 ; 4C39CF
short jne L20                               ; 75F4
L21:
cmp rdi, r8                                 ; 4C39C7
je L22                                      ; 0F84........
mov qword ptr [r8-8], rax                   ; 498940F8
L22:
ret                                         ; C3
L17:
cmp rsi, 1048640                            ; 4881FE40001000
jae L23                                     ; 0F83........
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
L24:
mov rdx, rsi                                ; 4889F2
cmp rdx, r10                                ; 4C39D2
cmova rdx, r10                              ; 490F47D2
sub rsi, rdx                                ; 4829D6
mov r9, rdx                                 ; 4989D1
and r9, -64                                 ; 4983E1C0
add r9, rdi                                 ; 4901F9
cmp rdi, r9                                 ; 4C39CF
je L27                                      ; 0F84........
L26:
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
short jne L26                               ; 75D0
L27:
mov r9, rdx                                 ; 4989D1
and r9, 56                                  ; 4983E138
add r9, rdi                                 ; 4901F9
cmp rdi, r9                                 ; 4C39CF
je L29                                      ; 0F84........
L28:
movnti qword ptr [rdi], rax                 ; 480FC307
add rdi, 8                                  ; 4883C708
cmp rdi, r9                                 ; 4C39CF
short jne L28                               ; 75F3
L29:
test rsi, rsi                               ; 4885F6
jz L25                                      ; 0F84........
sfence                                      ; 0FAEF8
short jmp L24                               ; EB82
L25:
cmp rdi, r8                                 ; 4C39C7
je L30                                      ; 0F84........
mov qword ptr [r8-8], rax                   ; 498940F8
L30:
sfence                                      ; 0FAEF8
ret                                         ; C3
L23:
pxor xmm0, xmm0                             ; 660FEFC0
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
je L32                                      ; 0F84........
L31:
movntdq xmmword ptr [rdi], xmm0             ; 660FE707
movntdq xmmword ptr [rdi+16], xmm0          ; 660FE74710
movntdq xmmword ptr [rdi+32], xmm0          ; 660FE74720
movntdq xmmword ptr [rdi+48], xmm0          ; 660FE74730
add rdi, 64                                 ; 4883C740
cmp rdi, r9                                 ; 4C39CF
short jne L31                               ; 75E4
L32:
mov r9, rdx                                 ; 4989D1
and r9, 48                                  ; 4983E130
add r9, rdi                                 ; 4901F9
cmp rdi, r9                                 ; 4C39CF
je L34                                      ; 0F84........
L33:
movntdq xmmword ptr [rdi], xmm0             ; 660FE707
add rdi, 16                                 ; 4883C710
cmp rdi, r9                                 ; 4C39CF
short jne L33                               ; 75F3
L34:
cmp rdi, r8                                 ; 4C39C7
je L35                                      ; 0F84........
movdqu xmmword ptr [r8-16], xmm0            ; F3410F7F40F0
L35:
sfence                                      ; 0FAEF8
ret                                         ; C3
