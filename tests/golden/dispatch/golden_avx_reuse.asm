lea r8, [rdi+rsi]                           ; 4C8D0437
xor eax, eax                                ; 31C0
vpxor xmm0, xmm0, xmm0                      ; C5F9EFC0
cmp rsi, 256                                ; 4881FE00010000
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
cmp rsi, 65600                              ; 4881FE40000100
jae L19                                     ; 0F83........
cmp rsi, 300                                ; 4881FE2C010000
jae L20                                     ; 0F83........
cmp rsi, 257                                ; 4881FE01010000
jae L21                                     ; 0F83........
jmp L9                                      ; E9........
L21:
jmp L10                                     ; E9........
L20:
cmp rsi, 1000                               ; 4881FEE8030000
jae L22                                     ; 0F83........
jmp L11                                     ; E9........
L22:
cmp rsi, 4096                               ; 4881FE00100000
jae L23                                     ; 0F83........
jmp L12                                     ; E9........
L23:
jmp L13                                     ; E9........
L19:
cmp rsi, 2147483647                         ; 4881FEFFFFFF7F
jae L24                                     ; 0F83........
cmp rsi, 1048640                            ; 4881FE40001000
jae L25                                     ; 0F83........
jmp L14                                     ; E9........
L25:
jmp L15                                     ; E9........
L24:
mov r11, 2147483648                         ; 49BB0000008000000000
cmp rsi, r11                                ; 4C39DE
jae L26                                     ; 0F83........
jmp L16                                     ; E9........
L26:
mov r11, 3221225472                         ; 49BB000000C000000000
cmp rsi, r11                                ; 4C39DE
jae L27                                     ; 0F83........
jmp L17                                     ; E9........
L27:
jmp L18                                     ; E9........
L9:
mov rdx, rsi                                ; 4889F2
mov rcx, rdx                                ; 4889D1
rep stos byte ptr [rdi], al                 ; F3AA
vzeroupper                                  ; C5F877
ret                                         ; C3
L10:
mov rdx, rsi                                ; 4889F2
mov r9, rdx                                 ; 4989D1
and r9, -64                                 ; 4983E1C0
add r9, rdi                                 ; 4901F9
cmp rdi, r9                                 ; 4C39CF
je L29                                      ; 0F84........
L28:
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
short jne L28                               ; 75D8
L29:
mov r9, rdx                                 ; 4989D1
and r9, 56                                  ; 4983E138
add r9, rdi                                 ; 4901F9
cmp rdi, r9                                 ; 4C39CF
je L31                                      ; 0F84........
L30:
mov qword ptr [rdi], rax                    ; 488907
add rdi, 8                                  ; 4883C708
cmp rdi, r9                                 ; 4C39CF
short jne L30                               ; 75F4
L31:
cmp rdi, r8                                 ; 4C39C7
je L32                                      ; 0F84........
mov qword ptr [r8-8], rax                   ; 498940F8
L32:
vzeroupper                                  ; C5F877
ret                                         ; C3
L11:
mov rdx, rsi                                ; 4889F2
mov r9, rdx                                 ; 4989D1
and r9, -64                                 ; 4983E1C0
add r9, rdi                                 ; 4901F9
cmp rdi, r9                                 ; 4C39CF
je L34                                      ; 0F84........
L33:
vmovdqu xmmword ptr [rdi], xmm0             ; C5FA7F07
vmovdqu xmmword ptr [rdi+16], xmm0          ; C5FA7F4710
vmovdqu xmmword ptr [rdi+32], xmm0          ; C5FA7F4720
vmovdqu xmmword ptr [rdi+48], xmm0          ; C5FA7F4730
add rdi, 64                                 ; 4883C740
cmp rdi, r9                                 ; 4C39CF
short jne L33                               ; 75E4
L34:
mov r9, rdx                                 ; 4989D1
and r9, 48                                  ; 4983E130
add r9, rdi                                 ; 4901F9
cmp rdi, r9                                 ; 4C39CF
je L36                                      ; 0F84........
L35:
vmovdqu xmmword ptr [rdi], xmm0             ; C5FA7F07
add rdi, 16                                 ; 4883C710
cmp rdi, r9                                 ; 4C39CF
short jne L35                               ; 75F3
L36:
cmp rdi, r8                                 ; 4C39C7
je L37                                      ; 0F84........
vmovdqu xmmword ptr [r8-16], xmm0           ; C4C17A7F40F0
L37:
vzeroupper                                  ; C5F877
ret                                         ; C3
L12:
mov rdx, rsi                                ; 4889F2
mov r9, rdx                                 ; 4989D1
and r9, -128                                ; 4983E180
add r9, rdi                                 ; 4901F9
cmp rdi, r9                                 ; 4C39CF
je L39                                      ; 0F84........
L38:
vmovdqu ymmword ptr [rdi], ymm0             ; C5FE7F07
vmovdqu ymmword ptr [rdi+32], ymm0          ; C5FE7F4720
vmovdqu ymmword ptr [rdi+64], ymm0          ; C5FE7F4740
vmovdqu ymmword ptr [rdi+96], ymm0          ; C5FE7F4760
add rdi, 128                                ; 4881C780000000
cmp rdi, r9                                 ; 4C39CF
short jne L38                               ; 75E1
L39:
mov r9, rdx                                 ; 4989D1
and r9, 96                                  ; 4983E160
add r9, rdi                                 ; 4901F9
cmp rdi, r9                                 ; 4C39CF
je L41                                      ; 0F84........
L40:
vmovdqu ymmword ptr [rdi], ymm0             ; C5FE7F07
add rdi, 32                                 ; 4883C720
cmp rdi, r9                                 ; 4C39CF
short jne L40                               ; 75F3
L41:
cmp rdi, r8                                 ; 4C39C7
je L42                                      ; 0F84........
vmovdqu ymmword ptr [r8-32], ymm0           ; C4C17E7F40E0
L42:
vzeroupper                                  ; C5F877
ret                                         ; C3
L13:
mov rdx, rsi                                ; 4889F2
mov r9, rdx                                 ; 4989D1
and r9, -64                                 ; 4983E1C0
add r9, rdi                                 ; 4901F9
cmp rdi, r9                                 ; 4C39CF
je L44                                      ; 0F84........
L43:
vmovdqu64 zmmword ptr [rdi], zmm0           ; 62F1FE487F07
add rdi, 64                                 ; 4883C740
cmp rdi, r9                                 ; 4C39CF
short jne L43                               ; 75F1
L44:
cmp rdi, r8                                 ; 4C39C7
je L45                                      ; 0F84........
vmovdqu64 zmmword ptr [r8-64], zmm0         ; 62D1FE487F40FF
L45:
vzeroupper                                  ; C5F877
ret                                         ; C3
L14:
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
je L47                                      ; 0F84........
L46:
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
short jne L46                               ; 75D0
L47:
mov r9, rdx                                 ; 4989D1
and r9, 56                                  ; 4983E138
add r9, rdi                                 ; 4901F9
cmp rdi, r9                                 ; 4C39CF
je L49                                      ; 0F84........
L48:
movnti qword ptr [rdi], rax                 ; 480FC307
add rdi, 8                                  ; 4883C708
cmp rdi, r9                                 ; 4C39CF
short jne L48                               ; 75F3
L49:
cmp rdi, r8                                 ; 4C39C7
je L50                                      ; 0F84........
mov qword ptr [r8-8], rax                   ; 498940F8
L50:
sfence                                      ; 0FAEF8
vzeroupper                                  ; C5F877
ret                                         ; C3
L15:
vmovdqu xmmword ptr [rdi], xmm0             ; C5FA7F07
vmovdqu xmmword ptr [rdi+16], xmm0          ; C5FA7F4710
vmovdqu xmmword ptr [rdi+32], xmm0          ; C5FA7F4720
vmovdqu xmmword ptr [rdi+48], xmm0          ; C5FA7F4730
add rdi, 63                                 ; 4883C73F
and rdi, -64                                ; 4883E7C0
mov rsi, r8                                 ; 4C89C6
sub rsi, rdi                                ; 4829FE
mov r10, 4096                               ; 49C7C200100000
L51:
mov rdx, rsi                                ; 4889F2
cmp rdx, r10                                ; 4C39D2
cmova rdx, r10                              ; 490F47D2
sub rsi, rdx                                ; 4829D6
mov r9, rdx                                 ; 4989D1
and r9, -64                                 ; 4983E1C0
add r9, rdi                                 ; 4901F9
cmp rdi, r9                                 ; 4C39CF
je L54                                      ; 0F84........
L53:
vmovntdq xmmword ptr [rdi], xmm0            ; C5F9E707
vmovntdq xmmword ptr [rdi+16], xmm0         ; C5F9E74710
vmovntdq xmmword ptr [rdi+32], xmm0         ; C5F9E74720
vmovntdq xmmword ptr [rdi+48], xmm0         ; C5F9E74730
add rdi, 64                                 ; 4883C740
cmp rdi, r9                                 ; 4C39CF
short jne L53                               ; 75E4
L54:
mov r9, rdx                                 ; 4989D1
and r9, 48                                  ; 4983E130
add r9, rdi                                 ; 4901F9
cmp rdi, r9                                 ; 4C39CF
je L56                                      ; 0F84........
L55:
vmovntdq xmmword ptr [rdi], xmm0            ; C5F9E707
add rdi, 16                                 ; 4883C710
cmp rdi, r9                                 ; 4C39CF
short jne L55                               ; 75F3
L56:
test rsi, rsi                               ; 4885F6
jz L52                                      ; 0F84........
sfence                                      ; 0FAEF8
short jmp L51                               ; EB96
L52:
cmp rdi, r8                                 ; 4C39C7
je L57                                      ; 0F84........
vmovdqu xmmword ptr [r8-16], xmm0           ; C4C17A7F40F0
L57:
sfence                                      ; 0FAEF8
vzeroupper                                  ; C5F877
ret                                         ; C3
L16:
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
je L59                                      ; 0F84........
L58:
vmovntdq ymmword ptr [rdi], ymm0            ; C5FDE707
vmovntdq ymmword ptr [rdi+32], ymm0         ; C5FDE74720
add rdi, 64                                 ; 4883C740
cmp rdi, r9                                 ; 4C39CF
short jne L58                               ; 75EE
L59:
mov r9, rdx                                 ; 4989D1
and r9, 32                                  ; 4983E120
add r9, rdi                                 ; 4901F9
cmp rdi, r9                                 ; 4C39CF
je L61                                      ; 0F84........
L60:
vmovntdq ymmword ptr [rdi], ymm0            ; C5FDE707
add rdi, 32                                 ; 4883C720
cmp rdi, r9                                 ; 4C39CF
short jne L60                               ; 75F3
L61:
cmp rdi, r8                                 ; 4C39C7
je L62                                      ; 0F84........
vmovdqu ymmword ptr [r8-32], ymm0           ; C4C17E7F40E0
L62:
sfence                                      ; 0FAEF8
vzeroupper                                  ; C5F877
ret                                         ; C3
L17:
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
je L64                                      ; 0F84........
L63:
vmovntdq zmmword ptr [rdi], zmm0            ; 62F17D48E707
add rdi, 64                                 ; 4883C740
cmp rdi, r9                                 ; 4C39CF
short jne L63                               ; 75F1
L64:
cmp rdi, r8                                 ; 4C39C7
je L65                                      ; 0F84........
vmovdqu64 zmmword ptr [r8-64], zmm0         ; 62D1FE487F40FF
L65:
sfence                                      ; 0FAEF8
vzeroupper                                  ; C5F877
ret                                         ; C3
L18:
vmovdqu xmmword ptr [rdi], xmm0             ; C5FA7F07
vmovdqu xmmword ptr [rdi+16], xmm0          ; C5FA7F4710
vmovdqu xmmword ptr [rdi+32], xmm0          ; C5FA7F4720
vmovdqu xmmword ptr [rdi+48], xmm0          ; C5FA7F4730
add rdi, 63                                 ; 4883C73F
and rdi, -64                                ; 4883E7C0
mov rsi, r8                                 ; 4C89C6
sub rsi, rdi                                ; 4829FE
mov r10, 4096                               ; 49C7C200100000
L66:
mov rdx, rsi                                ; 4889F2
cmp rdx, r10                                ; 4C39D2
cmova rdx, r10                              ; 490F47D2
sub rsi, rdx                                ; 4829D6
mov r9, rdx                                 ; 4989D1
and r9, -64                                 ; 4983E1C0
add r9, rdi                                 ; 4901F9
cmp rdi, r9                                 ; 4C39CF
je L69                                      ; 0F84........
L68:
lea rax, [rdi]                              ; 488D07
clzero                                      ; 0F01FC
add rdi, 64                                 ; 4883C740
cmp rdi, r9                                 ; 4C39CF
short jne L68                               ; 75F1
L69:
test rsi, rsi                               ; 4885F6
jz L67                                      ; 0F84........
sfence                                      ; 0FAEF8
short jmp L66                               ; EBC3
L67:
cmp rdi, r8                                 ; 4C39C7
je L70                                      ; 0F84........
vmovdqu xmmword ptr [r8-64], xmm0           ; C4C17A7F40C0
vmovdqu xmmword ptr [r8-48], xmm0           ; C4C17A7F40D0
vmovdqu xmmword ptr [r8-32], xmm0           ; C4C17A7F40E0
vmovdqu xmmword ptr [r8-16], xmm0           ; C4C17A7F40F0
L70:
sfence                                      ; 0FAEF8
vzeroupper                                  ; C5F877
ret                                         ; C3
