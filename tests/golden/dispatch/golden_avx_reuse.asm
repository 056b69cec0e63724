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
cmp rsi, 65600                              ; 4881FE40000100
jae L18                                     ; 0F83........
cmp rsi, 1000                               ; 4881FEE8030000
jae L19                                     ; 0F83........
cmp rsi, 300                                ; 4881FE2C010000
jae L20                                     ; 0F83........
jmp L9                                      ; E9........
L20:
jmp L10                                     ; E9........
L19:
cmp rsi, 4096                               ; 4881FE00100000
jae L21                                     ; 0F83........
jmp L11                                     ; E9........
L21:
jmp L12                                     ; E9........
L18:
cmp rsi, 2147483647                         ; 4881FEFFFFFF7F
jae L22                                     ; 0F83........
cmp rsi, 1048640                            ; 4881FE40001000
jae L23                                     ; 0F83........
jmp L13                                     ; E9........
L23:
jmp L14                                     ; E9........
L22:
mov r11, 2147483648                         ; 49BB0000008000000000
cmp rsi, r11                                ; 4C39DE
jae L24                                     ; 0F83........
jmp L15                                     ; E9........
L24:
mov r11, 3221225472                         ; 49BB000000C000000000
cmp rsi, r11                                ; 4C39DE
jae L25                                     ; 0F83........
jmp L16                                     ; E9........
L25:
jmp L17                                     ; E9........
L9:
mov rdx, rsi                                ; 4889F2
mov r9, rdx                                 ; 4989D1
and r9, -64                                 ; 4983E1C0
add r9, rdi                                 ; 4901F9
cmp rdi, r9                                 ; 4C39CF
je L27                                      ; 0F84........
L26:
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
short jne L26                               ; 75D8
L27:
mov r9, rdx                                 ; 4989D1
and r9, 56                                  ; 4983E138
add r9, rdi                                 ; 4901F9
cmp rdi, r9                                 ; 4C39CF
je L29                                      ; 0F84........
L28:
mov qword ptr [rdi], rax                    ; 488907
add rdi, 8                                  ; 4883C708
cmp rdi, r9                                 ; 4C39CF
short jne L28                               ; 75F4
L29:
cmp rdi, r8                                 ; 4C39C7
je L30                                      ; 0F84........
mov qword ptr [r8-8], rax                   ; 498940F8
L30:
vzeroupper                                  ; C5F877
ret                                         ; C3
L10:
mov rdx, rsi                                ; 4889F2
mov r9, rdx                                 ; 4989D1
and r9, -64                                 ; 4983E1C0
add r9, rdi                                 ; 4901F9
cmp rdi, r9                                 ; 4C39CF
je L32                                      ; 0F84........
L31:
vmovdqu xmmword ptr [rdi], xmm0             ; C5FA7F07
vmovdqu xmmword ptr [rdi+16], xmm0          ; C5FA7F4710
vmovdqu xmmword ptr [rdi+32], xmm0          ; C5FA7F4720
vmovdqu xmmword ptr [rdi+48], xmm0          ; C5FA7F4730
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
vmovdqu xmmword ptr [rdi], xmm0             ; C5FA7F07
add rdi, 16                                 ; 4883C710
cmp rdi, r9                                 ; 4C39CF
short jne L33                               ; 75F3
L34:
cmp rdi, r8                                 ; 4C39C7
je L35                                      ; 0F84........
vmovdqu xmmword ptr [r8-16], xmm0           ; C4C17A7F40F0
L35:
vzeroupper                                  ; C5F877
ret                                         ; C3
L11:
mov rdx, rsi                                ; 4889F2
mov r9, rdx                                 ; 4989D1
and r9, -128                                ; 4983E180
add r9, rdi                                 ; 4901F9
cmp rdi, r9                                 ; 4C39CF
je L37                                      ; 0F84........
L36:
vmovdqu ymmword ptr [rdi], ymm0             ; C5FE7F07
vmovdqu ymmword ptr [rdi+32], ymm0          ; C5FE7F4720
vmovdqu ymmword ptr [rdi+64], ymm0          ; C5FE7F4740
vmovdqu ymmword ptr [rdi+96], ymm0          ; C5FE7F4760
add rdi, 128                                ; 4881C780000000
cmp rdi, r9                                 ; 4C39CF
short jne L36                               ; 75E1
L37:
mov r9, rdx                                 ; 4989D1
and r9, 96                                  ; 4983E160
add r9, rdi                                 ; 4901F9
cmp rdi, r9                                 ; 4C39CF
je L39                                      ; 0F84........
L38:
vmovdqu ymmword ptr [rdi], ymm0             ; C5FE7F07
add rdi, 32                                 ; 4883C720
cmp rdi, r9                                 ; 4C39CF
short jne L38                               ; 75F3
L39:
cmp rdi, r8                                 ; 4C39C7
je L40                                      ; 0F84........
vmovdqu ymmword ptr [r8-32], ymm0           ; C4C17E7F40E0
L40:
vzeroupper                                  ; C5F877
ret                                         ; C3
L12:
mov rdx, rsi                                ; 4889F2
mov r9, rdx                                 ; 4989D1
and r9, -64                                 ; 4983E1C0
add r9, rdi                                 ; 4901F9
cmp rdi, r9                                 ; 4C39CF
je L42                                      ; 0F84........
L41:
vmovdqu64 zmmword ptr [rdi], zmm0           ; 62F1FE487F07
add rdi, 64                                 ; 4883C740
cmp rdi, r9                                 ; 4C39CF
short jne L41                               ; 75F1
L42:
cmp rdi, r8                                 ; 4C39C7
je L43                                      ; 0F84........
vmovdqu64 zmmword ptr [r8-64], zmm0         ; 62D1FE487F40FF
L43:
vzeroupper                                  ; C5F877
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
mov rdx, rsi                                ; 4889F2
mov r9, rdx                                 ; 4989D1
and r9, -64                                 ; 4983E1C0
add r9, rdi                                 ; 4901F9
cmp rdi, r9                                 ; 4C39CF
je L45                                      ; 0F84........
L44:
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
short jne L44                               ; 75D0
L45:
mov r9, rdx                                 ; 4989D1
and r9, 56                                  ; 4983E138
add r9, rdi                                 ; 4901F9
cmp rdi, r9                                 ; 4C39CF
je L47                                      ; 0F84........
L46:
movnti qword ptr [rdi], rax                 ; 480FC307
add rdi, 8                                  ; 4883C708
cmp rdi, r9                                 ; 4C39CF
short jne L46                               ; 75F3
L47:
cmp rdi, r8                                 ; 4C39C7
je L48                                      ; 0F84........
mov qword ptr [r8-8], rax                   ; 498940F8
L48:
sfence                                      ; 0FAEF8
vzeroupper                                  ; C5F877
ret                                         ; C3
L14:
vmovdqu xmmword ptr [rdi], xmm0             ; C5FA7F07
vmovdqu xmmword ptr [rdi+16], xmm0          ; C5FA7F4710
vmovdqu xmmword ptr [rdi+32], xmm0          ; C5FA7F4720
vmovdqu xmmword ptr [rdi+48], xmm0          ; C5FA7F4730
add rdi, 63                                 ; 4883C73F
and rdi, -64                                ; 4883E7C0
mov rsi, r8                                 ; 4C89C6
sub rsi, rdi                                ; 4829FE
mov r10, 4096                               ; 49C7C200100000
L49:
mov rdx, rsi                                ; 4889F2
cmp rdx, r10                                ; 4C39D2
cmova rdx, r10                              ; 490F47D2
sub rsi, rdx                                ; 4829D6
mov r9, rdx                                 ; 4989D1
and r9, -64                                 ; 4983E1C0
add r9, rdi                                 ; 4901F9
cmp rdi, r9                                 ; 4C39CF
je L52                                      ; 0F84........
L51:
vmovntdq xmmword ptr [rdi], xmm0            ; C5F9E707
vmovntdq xmmword ptr [rdi+16], xmm0         ; C5F9E74710
vmovntdq xmmword ptr [rdi+32], xmm0         ; C5F9E74720
vmovntdq xmmword ptr [rdi+48], xmm0         ; C5F9E74730
add rdi, 64                                 ; 4883C740
cmp rdi, r9                                 ; 4C39CF
short jne L51                               ; 75E4
L52:
mov r9, rdx                                 ; 4989D1
and r9, 48                                  ; 4983E130
add r9, rdi                                 ; 4901F9
cmp rdi, r9                                 ; 4C39CF
je L54                                      ; 0F84........
L53:
vmovntdq xmmword ptr [rdi], xmm0            ; C5F9E707
add rdi, 16                                 ; 4883C710
cmp rdi, r9                                 ; 4C39CF
short jne L53                               ; 75F3
L54:
test rsi, rsi                               ; 4885F6
jz L50                                      ; 0F84........
sfence                                      ; 0FAEF8
short jmp L49                               ; EB96
L50:
cmp rdi, r8                                 ; 4C39C7
je L55                                      ; 0F84........
vmovdqu xmmword ptr [r8-16], xmm0           ; C4C17A7F40F0
L55:
sfence                                      ; 0FAEF8
vzeroupper                                  ; C5F877
ret                                         ; C3
L15:
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
je L57                                      ; 0F84........
L56:
vmovntdq ymmword ptr [rdi], ymm0            ; C5FDE707
vmovntdq ymmword ptr [rdi+32], ymm0         ; C5FDE74720
add rdi, 64                                 ; 4883C740
cmp rdi, r9                                 ; 4C39CF
short jne L56                               ; 75EE
L57:
mov r9, rdx                                 ; 4989D1
and r9, 32                                  ; 4983E120
add r9, rdi                                 ; 4901F9
cmp rdi, r9                                 ; 4C39CF
je L59                                      ; 0F84........
L58:
vmovntdq ymmword ptr [rdi], ymm0            ; C5FDE707
add rdi, 32                                 ; 4883C720
cmp rdi, r9                                 ; 4C39CF
short jne L58                               ; 75F3
L59:
cmp rdi, r8                                 ; 4C39C7
je L60                                      ; 0F84........
vmovdqu ymmword ptr [r8-32], ymm0           ; C4C17E7F40E0
L60:
sfence                                      ; 0FAEF8
vzeroupper                                  ; C5F877
ret                                         ; C3
L16:
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
je L62                                      ; 0F84........
L61:
vmovntdq zmmword ptr [rdi], zmm0            ; 62F17D48E707
add rdi, 64                                 ; 4883C740
cmp rdi, r9                                 ; 4C39CF
short jne L61                               ; 75F1
L62:
cmp rdi, r8                                 ; 4C39C7
je L63                                      ; 0F84........
vmovdqu64 zmmword ptr [r8-64], zmm0         ; 62D1FE487F40FF
L63:
sfence                                      ; 0FAEF8
vzeroupper                                  ; C5F877
ret                                         ; C3
L17:
vmovdqu xmmword ptr [rdi], xmm0             ; C5FA7F07
vmovdqu xmmword ptr [rdi+16], xmm0          ; C5FA7F4710
vmovdqu xmmword ptr [rdi+32], xmm0          ; C5FA7F4720
vmovdqu xmmword ptr [rdi+48], xmm0          ; C5FA7F4730
add rdi, 63                                 ; 4883C73F
and rdi, -64                                ; 4883E7C0
mov rsi, r8                                 ; 4C89C6
sub rsi, rdi                                ; 4829FE
mov r10, 4096                               ; 49C7C200100000
L64:
mov rdx, rsi                                ; 4889F2
cmp rdx, r10                                ; 4C39D2
cmova rdx, r10                              ; 490F47D2
sub rsi, rdx                                ; 4829D6
mov r9, rdx                                 ; 4989D1
and r9, -64                                 ; 4983E1C0
add r9, rdi                                 ; 4901F9
cmp rdi, r9                                 ; 4C39CF
je L67                                      ; 0F84........
L66:
lea rax, [rdi]                              ; 488D07
clzero                                      ; 0F01FC
add rdi, 64                                 ; 4883C740
cmp rdi, r9                                 ; 4C39CF
short jne L66                               ; 75F1
L67:
test rsi, rsi                               ; 4885F6
jz L65                                      ; 0F84........
sfence                                      ; 0FAEF8
short jmp L64                               ; EBC3
L65:
cmp rdi, r8                                 ; 4C39C7
je L68                                      ; 0F84........
vmovdqu xmmword ptr [r8-64], xmm0           ; C4C17A7F40C0
vmovdqu xmmword ptr [r8-48], xmm0           ; C4C17A7F40D0
vmovdqu xmmword ptr [r8-32], xmm0           ; C4C17A7F40E0
vmovdqu xmmword ptr [r8-16], xmm0           ; C4C17A7F40F0
L68:
sfence                                      ; 0FAEF8
vzeroupper                                  ; C5F877
ret                                         ; C3
