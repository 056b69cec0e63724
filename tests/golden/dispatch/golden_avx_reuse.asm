lea r8, [rdi+rsi]                           ; 4C8D0437
xor eax, eax                                ; 31C0
vpxor xmm0, xmm0, xmm0                      ; C5F9EFC0
cmp rsi, 256                                ; 4881FE00010000
jae L0                                      ; 0F83........
cmp rsi, 128                                ; 4881FE80000000
jb L2                                       ; 0F82........
vmovdqu ymmword ptr [rdi], ymm0             ; C5FE7F07
vmovdqu ymmword ptr [rdi+32], ymm0          ; C5FE7F4720
vmovdqu ymmword ptr [rdi+64], ymm0          ; C5FE7F4740
vmovdqu ymmword ptr [rdi+96], ymm0          ; C5FE7F4760
vmovdqu ymmword ptr [r8-128], ymm0          ; C4C17E7F4080
vmovdqu ymmword ptr [r8-96], ymm0           ; C4C17E7F40A0
vmovdqu ymmword ptr [r8-64], ymm0           ; C4C17E7F40C0
vmovdqu ymmword ptr [r8-32], ymm0           ; C4C17E7F40E0
jmp L1                                      ; E9........
L2:
cmp rsi, 64                                 ; 4883FE40
jb L3                                       ; 0F82........
vmovdqu ymmword ptr [rdi], ymm0             ; C5FE7F07
vmovdqu ymmword ptr [rdi+32], ymm0          ; C5FE7F4720
vmovdqu ymmword ptr [r8-64], ymm0           ; C4C17E7F40C0
vmovdqu ymmword ptr [r8-32], ymm0           ; C4C17E7F40E0
jmp L1                                      ; E9........
L3:
cmp rsi, 32                                 ; 4883FE20
jb L4                                       ; 0F82........
vmovdqu ymmword ptr [rdi], ymm0             ; C5FE7F07
vmovdqu ymmword ptr [r8-32], ymm0           ; C4C17E7F40E0
jmp L1                                      ; E9........
L4:
cmp rsi, 16                                 ; 4883FE10
jb L5                                       ; 0F82........
vmovdqu xmmword ptr [rdi], xmm0             ; C5FA7F07
vmovdqu xmmword ptr [r8-16], xmm0           ; C4C17A7F40F0
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
vzeroupper                                  ; C5F877
ret                                         ; C3
L0:
cmp rsi, 65600                              ; 4881FE40000100
jae L20                                     ; 0F83........
cmp rsi, 300                                ; 4881FE2C010000
jae L21                                     ; 0F83........
cmp rsi, 257                                ; 4881FE01010000
jae L22                                     ; 0F83........
jmp L10                                     ; E9........
L22:
jmp L11                                     ; E9........
L21:
cmp rsi, 1000                               ; 4881FEE8030000
jae L23                                     ; 0F83........
jmp L12                                     ; E9........
L23:
cmp rsi, 4096                               ; 4881FE00100000
jae L24                                     ; 0F83........
jmp L13                                     ; E9........
L24:
jmp L14                                     ; E9........
L20:
cmp rsi, 2147483647                         ; 4881FEFFFFFF7F
jae L25                                     ; 0F83........
cmp rsi, 1048640                            ; 4881FE40001000
jae L26                                     ; 0F83........
jmp L15                                     ; E9........
L26:
jmp L16                                     ; E9........
L25:
mov r11, 2147483648                         ; 49BB0000008000000000
cmp rsi, r11                                ; 4C39DE
jae L27                                     ; 0F83........
jmp L17                                     ; E9........
L27:
mov r11, 3221225472                         ; 49BB000000C000000000
cmp rsi, r11                                ; 4C39DE
jae L28                                     ; 0F83........
jmp L18                                     ; E9........
L28:
jmp L19                                     ; E9........
L10:
mov rdx, rsi                                ; 4889F2
mov rcx, rdx                                ; 4889D1
rep stos byte ptr [rdi], al                 ; F3AA
vzeroupper                                  ; C5F877
ret                                         ; C3
L11:
mov rdx, rsi                                ; 4889F2
mov r9, rdx                                 ; 4989D1
and r9, -64                                 ; 4983E1C0
add r9, rdi                                 ; 4901F9
cmp rdi, r9                                 ; 4C39CF
je L30                                      ; 0F84........
L29:
mov qword ptr [rdi], rax                    ; 488907
mov qword ptr [rdi+8], rax                  ; 48894708
mov qword ptr [rdi+16], rax                 ; 48894710
mov qword ptr [rdi+24], rax                 ; 48894718
mov qword ptr [rdi+32], rax                 ; 48894720
mov qword ptr [rdi+40], rax                 ; 48894728
mov qword ptr [rdi+48], rax                 ; 48894730
mov qword ptr [rdi+56], rax                 ; 48894738
add rdi, 64                                 ; 4883C740
cmp rdi, r9                                 ; 4C39CF
short jne L29                               ; 75D8
L30:
mov r9, rdx                                 ; 4989D1
and r9, 56                                  ; 4983E138
add r9, rdi                                 ; 4901F9
cmp rdi, r9                                 ; 4C39CF
je L32                                      ; 0F84........
L31:
mov qword ptr [rdi], rax                    ; 488907
add rdi, 8                                  ; 4883C708
cmp rdi, r9                                 ; 4C39CF
short jne L31                               ; 75F4
L32:
cmp rdi, r8                                 ; 4C39C7
je L33                                      ; 0F84........
mov qword ptr [r8-8], rax                   ; 498940F8
L33:
vzeroupper                                  ; C5F877
ret                                         ; C3
L12:
mov rdx, rsi                                ; 4889F2
mov r9, rdx                                 ; 4989D1
and r9, -64                                 ; 4983E1C0
add r9, rdi                                 ; 4901F9
cmp rdi, r9                                 ; 4C39CF
je L35                                      ; 0F84........
L34:
vmovdqu xmmword ptr [rdi], xmm0             ; C5FA7F07
vmovdqu xmmword ptr [rdi+16], xmm0          ; C5FA7F4710
vmovdqu xmmword ptr [rdi+32], xmm0          ; C5FA7F4720
vmovdqu xmmword ptr [rdi+48], xmm0          ; C5FA7F4730
add rdi, 64                                 ; 4883C740
cmp rdi, r9                                 ; 4C39CF
short jne L34                               ; 75E4
L35:
mov r9, rdx                                 ; 4989D1
and r9, 48                                  ; 4983E130
add r9, rdi                                 ; 4901F9
cmp rdi, r9                                 ; 4C39CF
je L37                                      ; 0F84........
L36:
vmovdqu xmmword ptr [rdi], xmm0             ; C5FA7F07
add rdi, 16                                 ; 4883C710
cmp rdi, r9                                 ; 4C39CF
short jne L36                               ; 75F3
L37:
cmp rdi, r8                                 ; 4C39C7
je L38                                      ; 0F84........
vmovdqu xmmword ptr [r8-16], xmm0           ; C4C17A7F40F0
L38:
vzeroupper                                  ; C5F877
ret                                         ; C3
L13:
mov rdx, rsi                                ; 4889F2
mov r9, rdx                                 ; 4989D1
and r9, -128                                ; 4983E180
add r9, rdi                                 ; 4901F9
cmp rdi, r9                                 ; 4C39CF
je L40                                      ; 0F84........
L39:
vmovdqu ymmword ptr [rdi], ymm0             ; C5FE7F07
vmovdqu ymmword ptr [rdi+32], ymm0          ; C5FE7F4720
vmovdqu ymmword ptr [rdi+64], ymm0          ; C5FE7F4740
vmovdqu ymmword ptr [rdi+96], ymm0          ; C5FE7F4760
add rdi, 128                                ; 4881C780000000
cmp rdi, r9                                 ; 4C39CF
short jne L39                               ; 75E1
L40:
mov r9, rdx                                 ; 4989D1
and r9, 96                                  ; 4983E160
add r9, rdi                                 ; 4901F9
cmp rdi, r9                                 ; 4C39CF
je L42                                      ; 0F84........
L41:
vmovdqu ymmword ptr [rdi], ymm0             ; C5FE7F07
add rdi, 32                                 ; 4883C720
cmp rdi, r9                                 ; 4C39CF
short jne L41                               ; 75F3
L42:
cmp rdi, r8                                 ; 4C39C7
je L43                                      ; 0F84........
vmovdqu ymmword ptr [r8-32], ymm0           ; C4C17E7F40E0
L43:
vzeroupper                                  ; C5F877
ret                                         ; C3
L14:
mov rdx, rsi                                ; 4889F2
mov r9, rdx                                 ; 4989D1
and r9, -64                                 ; 4983E1C0
add r9, rdi                                 ; 4901F9
cmp rdi, r9                                 ; 4C39CF
je L45                                      ; 0F84........
L44:
vmovdqu64 zmmword ptr [rdi], zmm0           ; 62F1FE487F07
add rdi, 64                                 ; 4883C740
cmp rdi, r9                                 ; 4C39CF
short jne L44                               ; 75F1
L45:
cmp rdi, r8                                 ; 4C39C7
je L46                                      ; 0F84........
vmovdqu64 zmmword ptr [r8-64], zmm0         ; 62D1FE487F40FF
L46:
vzeroupper                                  ; C5F877
ret                                         ; C3
L15:
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
mov rdx, rsi                                ; 4889F2
mov r9, rdx                                 ; 4989D1
and r9, -64                                 ; 4983E1C0
add r9, rdi                                 ; 4901F9
cmp rdi, r9                                 ; 4C39CF
je L48                                      ; 0F84........
L47:
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
short jne L47                               ; 75D0
L48:
mov r9, rdx                                 ; 4989D1
and r9, 56                                  ; 4983E138
add r9, rdi                                 ; 4901F9
cmp rdi, r9                                 ; 4C39CF
je L50                                      ; 0F84........
L49:
movnti qword ptr [rdi], rax                 ; 480FC307
add rdi, 8                                  ; 4883C708
cmp rdi, r9                                 ; 4C39CF
short jne L49                               ; 75F3
L50:
cmp rdi, r8                                 ; 4C39C7
je L51                                      ; 0F84........
mov qword ptr [r8-8], rax                   ; 498940F8
L51:
sfence                                      ; 0FAEF8
vzeroupper                                  ; C5F877
ret                                         ; C3
L16:
vmovdqu xmmword ptr [rdi], xmm0             ; C5FA7F07
vmovdqu xmmword ptr [rdi+16], xmm0          ; C5FA7F4710
vmovdqu xmmword ptr [rdi+32], xmm0          ; C5FA7F4720
vmovdqu xmmword ptr [rdi+48], xmm0          ; C5FA7F4730
add rdi, 63                                 ; 4883C73F
and rdi, -64                                ; 4883E7C0
mov rsi, r8                                 ; 4C89C6
sub rsi, rdi                                ; 4829FE
mov r10, 4096                               ; 49C7C200100000
L52:
mov rdx, rsi                                ; 4889F2
cmp rdx, r10                                ; 4C39D2
cmova rdx, r10                              ; 490F47D2
sub rsi, rdx                                ; 4829D6
mov r9, rdx                                 ; 4989D1
and r9, -64                                 ; 4983E1C0
add r9, rdi                                 ; 4901F9
cmp rdi, r9                                 ; 4C39CF
je L55                                      ; 0F84........
L54:
vmovntdq xmmword ptr [rdi], xmm0            ; C5F9E707
vmovntdq xmmword ptr [rdi+16], xmm0         ; C5F9E74710
vmovntdq xmmword ptr [rdi+32], xmm0         ; C5F9E74720
vmovntdq xmmword ptr [rdi+48], xmm0         ; C5F9E74730
add rdi, 64                                 ; 4883C740
cmp rdi, r9                                 ; 4C39CF
short jne L54                               ; 75E4
L55:
mov r9, rdx                                 ; 4989D1
and r9, 48                                  ; 4983E130
add r9, rdi                                 ; 4901F9
cmp rdi, r9                                 ; 4C39CF
je L57                                      ; 0F84........
L56:
vmovntdq xmmword ptr [rdi], xmm0            ; C5F9E707
add rdi, 16                                 ; 4883C710
cmp rdi, r9                                 ; 4C39CF
short jne L56                               ; 75F3
L57:
test rsi, rsi                               ; 4885F6
jz L53                                      ; 0F84........
sfence                                      ; 0FAEF8
short jmp L52                               ; EB96
L53:
cmp rdi, r8                                 ; 4C39C7
je L58                                      ; 0F84........
vmovdqu xmmword ptr [r8-16], xmm0           ; C4C17A7F40F0
L58:
sfence                                      ; 0FAEF8
vzeroupper                                  ; C5F877
ret                                         ; C3
L17:
vmovdqu ymmword ptr [rdi], ymm0             ; C5FE7F07
vmovdqu ymmword ptr [rdi+32], ymm0          ; C5FE7F4720
add rdi, 63                                 ; 4883C73F
and rdi, -64                                ; 4883E7C0
mov rsi, r8                                 ; 4C89C6
sub rsi, rdi                                ; 4829FE
mov rdx, rsi                                ; 4889F2
mov r9, rdx                                 ; 4989D1
and r9, -64                                 ; 4983E1C0
add r9, rdi                                 ; 4901F9
cmp rdi, r9                                 ; 4C39CF
je L60                                      ; 0F84........
L59:
vmovntdq ymmword ptr [rdi], ymm0            ; C5FDE707
vmovntdq ymmword ptr [rdi+32], ymm0         ; C5FDE74720
add rdi, 64                                 ; 4883C740
cmp rdi, r9                                 ; 4C39CF
short jne L59                               ; 75EE
L60:
mov r9, rdx                                 ; 4989D1
and r9, 32                                  ; 4983E120
add r9, rdi                                 ; 4901F9
cmp rdi, r9                                 ; 4C39CF
je L62                                      ; 0F84........
L61:
vmovntdq ymmword ptr [rdi], ymm0            ; C5FDE707
add rdi, 32                                 ; 4883C720
cmp rdi, r9                                 ; 4C39CF
short jne L61                               ; 75F3
L62:
cmp rdi, r8                                 ; 4C39C7
je L63                                      ; 0F84........
vmovdqu ymmword ptr [r8-32], ymm0           ; C4C17E7F40E0
L63:
sfence                                      ; 0FAEF8
vzeroupper                                  ; C5F877
ret                                         ; C3
L18:
vmovdqu64 zmmword ptr [rdi], zmm0           ; 62F1FE487F07
add rdi, 63                                 ; 4883C73F
and rdi, -64                                ; 4883E7C0
mov rsi, r8                                 ; 4C89C6
sub rsi, rdi                                ; 4829FE
mov rdx, rsi                                ; 4889F2
mov r9, rdx                                 ; 4989D1
and r9, -64                                 ; 4983E1C0
add r9, rdi                                 ; 4901F9
cmp rdi, r9                                 ; 4C39CF
je L65                                      ; 0F84........
L64:
vmovntdq zmmword ptr [rdi], zmm0            ; 62F17D48E707
add rdi, 64                                 ; 4883C740
cmp rdi, r9                                 ; 4C39CF
short jne L64                               ; 75F1
L65:
cmp rdi, r8                                 ; 4C39C7
je L66                                      ; 0F84........
vmovdqu64 zmmword ptr [r8-64], zmm0         ; 62D1FE487F40FF
L66:
sfence                                      ; 0FAEF8
vzeroupper                                  ; C5F877
ret                                         ; C3
L19:
vmovdqu xmmword ptr [rdi], xmm0             ; C5FA7F07
vmovdqu xmmword ptr [rdi+16], xmm0          ; C5FA7F4710
vmovdqu xmmword ptr [rdi+32], xmm0          ; C5FA7F4720
vmovdqu xmmword ptr [rdi+48], xmm0          ; C5FA7F4730
add rdi, 63                                 ; 4883C73F
and rdi, -64                                ; 4883E7C0
mov rsi, r8                                 ; 4C89C6
sub rsi, rdi                                ; 4829FE
mov r10, 4096                               ; 49C7C200100000
L67:
mov rdx, rsi                                ; 4889F2
cmp rdx, r10                                ; 4C39D2
cmova rdx, r10                              ; 490F47D2
sub rsi, rdx                                ; 4829D6
mov r9, rdx                                 ; 4989D1
and r9, -64                                 ; 4983E1C0
add r9, rdi                                 ; 4901F9
cmp rdi, r9                                 ; 4C39CF
je L70                                      ; 0F84........
L69:
lea rax, [rdi]                              ; 488D07
clzero                                      ; 0F01FC
add rdi, 64                                 ; 4883C740
cmp rdi, r9                                 ; 4C39CF
short jne L69                               ; 75F1
L70:
test rsi, rsi                               ; 4885F6
jz L68                                      ; 0F84........
sfence                                      ; 0FAEF8
short jmp L67                               ; EBC3
L68:
cmp rdi, r8                                 ; 4C39C7
je L71                                      ; 0F84........
vmovdqu xmmword ptr [r8-64], xmm0           ; C4C17A7F40C0
vmovdqu xmmword ptr [r8-48], xmm0           ; C4C17A7F40D0
vmovdqu xmmword ptr [r8-32], xmm0           ; C4C17A7F40E0
vmovdqu xmmword ptr [r8-16], xmm0           ; C4C17A7F40F0
L71:
sfence                                      ; 0FAEF8
vzeroupper                                  ; C5F877
ret                                         ; C3
