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
vpxord xmm16, xmm16, xmm16                  ; 62A17D00EFC0
vmovdqu64 xmmword ptr [rdi], xmm16          ; 62E1FE087F07
vmovdqu64 xmmword ptr [rdi+rsi-16], xmm16   ; 62E1FE087F4437FF
ret                                         ; C3
L5:
cmp rsi, 65                                 ; 4883FE41
jae L7                                      ; 0F83........
vpxord xmm16, xmm16, xmm16                  ; 62A17D00EFC0
vmovdqu64 ymmword ptr [rdi], ymm16          ; 62E1FE287F07
vmovdqu64 ymmword ptr [rdi+rsi-32], ymm16   ; 62E1FE287F4437FF
ret                                         ; C3
L7:
cmp rsi, 129                                ; 4881FE81000000
jae L8                                      ; 0F83........
vpxord xmm16, xmm16, xmm16                  ; 62A17D00EFC0
vmovdqu64 ymmword ptr [rdi], ymm16          ; 62E1FE287F07
vmovdqu64 ymmword ptr [rdi+32], ymm16       ; 62E1FE287F4701
vmovdqu64 ymmword ptr [rdi+rsi-64], ymm16   ; 62E1FE287F4437FE
vmovdqu64 ymmword ptr [rdi+rsi-32], ymm16   ; 62E1FE287F4437FF
ret                                         ; C3
L8:
vpxord xmm16, xmm16, xmm16                  ; 62A17D00EFC0
vmovdqu64 ymmword ptr [rdi], ymm16          ; 62E1FE287F07
vmovdqu64 ymmword ptr [rdi+32], ymm16       ; 62E1FE287F4701
vmovdqu64 ymmword ptr [rdi+64], ymm16       ; 62E1FE287F4702
vmovdqu64 ymmword ptr [rdi+96], ymm16       ; 62E1FE287F4703
vmovdqu64 ymmword ptr [rdi+rsi-128], ymm16  ; 62E1FE287F4437FC
vmovdqu64 ymmword ptr [rdi+rsi-96], ymm16   ; 62E1FE287F4437FD
vmovdqu64 ymmword ptr [rdi+rsi-64], ymm16   ; 62E1FE287F4437FE
vmovdqu64 ymmword ptr [rdi+rsi-32], ymm16   ; 62E1FE287F4437FF
ret                                         ; C3
L0:
lea r8, [rdi+rsi]                           ; 4C8D0437
xor eax, eax                                ; 31C0
cmp rsi, 65600                              ; 4881FE40000100
jae L9                                      ; 0F83........
cmp rsi, 1000                               ; 4881FEE8030000
jae L10                                     ; 0F83........
cmp rsi, 300                                ; 4881FE2C010000
jae L11                                     ; 0F83........
mov rdx, rsi                                ; 4889F2
mov r9, rdx                                 ; 4989D1
and r9, -64                                 ; 4983E1C0
add r9, rdi                                 ; 4901F9
cmp rdi, r9                                 ; 4C39CF
je L13                                      ; 0F84........
L12:
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
short jne L12                               ; 75D8
L13:
mov r9, rdx                                 ; 4989D1
and r9, 56                                  ; 4983E138
add r9, rdi                                 ; 4901F9
cmp rdi, r9                                 ; 4C39CF
je L15                                      ; 0F84........
L14:
mov qword ptr [rdi], rax                    ; 488907
add rdi, 8                                  ; 4883C708
cmp rdi, r9                                 ; 4C39CF
short jne L14                               ; 75F4
L15:
cmp rdi, r8                                 ; 4C39C7
je L16                                      ; 0F84........
mov qword ptr [r8-8], rax                   ; 498940F8
L16:
ret                                         ; C3
L11:
vpxor xmm0, xmm0, xmm0                      ; C5F9EFC0
mov rdx, rsi                                ; 4889F2
mov r9, rdx                                 ; 4989D1
and r9, -64                                 ; 4983E1C0
add r9, rdi                                 ; 4901F9
cmp rdi, r9                                 ; 4C39CF
je L18                                      ; 0F84........
L17:
vmovdqu xmmword ptr [rdi], xmm0             ; C5FA7F07
vmovdqu xmmword ptr [rdi+16], xmm0          ; C5FA7F4710
vmovdqu xmmword ptr [rdi+32], xmm0          ; C5FA7F4720
vmovdqu xmmword ptr [rdi+48], xmm0          ; C5FA7F4730
add rdi, 64                                 ; 4883C740
cmp rdi, r9                                 ; 4C39CF
short jne L17                               ; 75E4
L18:
mov r9, rdx                                 ; 4989D1
and r9, 48                                  ; 4983E130
add r9, rdi                                 ; 4901F9
cmp rdi, r9                                 ; 4C39CF
je L20                                      ; 0F84........
L19:
vmovdqu xmmword ptr [rdi], xmm0             ; C5FA7F07
add rdi, 16                                 ; 4883C710
cmp rdi, r9                                 ; 4C39CF
short jne L19                               ; 75F3
L20:
cmp rdi, r8                                 ; 4C39C7
je L21                                      ; 0F84........
vmovdqu xmmword ptr [r8-16], xmm0           ; C4C17A7F40F0
L21:
vzeroupper                                  ; C5F877
ret                                         ; C3
L10:
cmp rsi, 4096                               ; 4881FE00100000
jae L22                                     ; 0F83........
vpxor xmm0, xmm0, xmm0                      ; C5F9EFC0
mov rdx, rsi                                ; 4889F2
mov r9, rdx                                 ; 4989D1
and r9, -128                                ; 4983E180
add r9, rdi                                 ; 4901F9
cmp rdi, r9                                 ; 4C39CF
je L24                                      ; 0F84........
L23:
vmovdqu ymmword ptr [rdi], ymm0             ; C5FE7F07
vmovdqu ymmword ptr [rdi+32], ymm0          ; C5FE7F4720
vmovdqu ymmword ptr [rdi+64], ymm0          ; C5FE7F4740
vmovdqu ymmword ptr [rdi+96], ymm0          ; C5FE7F4760
add rdi, 128                                ; 4881C780000000
cmp rdi, r9                                 ; 4C39CF
short jne L23                               ; 75E1
L24:
mov r9, rdx                                 ; 4989D1
and r9, 96                                  ; 4983E160
add r9, rdi                                 ; 4901F9
cmp rdi, r9                                 ; 4C39CF
je L26                                      ; 0F84........
L25:
vmovdqu ymmword ptr [rdi], ymm0             ; C5FE7F07
add rdi, 32                                 ; 4883C720
cmp rdi, r9                                 ; 4C39CF
short jne L25                               ; 75F3
L26:
cmp rdi, r8                                 ; 4C39C7
je L27                                      ; 0F84........
vmovdqu ymmword ptr [r8-32], ymm0           ; C4C17E7F40E0
L27:
vzeroupper                                  ; C5F877
ret                                         ; C3
L22:
vpxor xmm0, xmm0, xmm0                      ; C5F9EFC0
mov rdx, rsi                                ; 4889F2
mov r9, rdx                                 ; 4989D1
and r9, -64                                 ; 4983E1C0
add r9, rdi                                 ; 4901F9
cmp rdi, r9                                 ; 4C39CF
je L29                                      ; 0F84........
L28:
vmovdqu64 zmmword ptr [rdi], zmm0           ; 62F1FE487F07
add rdi, 64                                 ; 4883C740
cmp rdi, r9                                 ; 4C39CF
short jne L28                               ; 75F1
L29:
cmp rdi, r8                                 ; 4C39C7
je L30                                      ; 0F84........
vmovdqu64 zmmword ptr [r8-64], zmm0         ; 62D1FE487F40FF
L30:
vzeroupper                                  ; C5F877
ret                                         ; C3
L9:
cmp rsi, 2147483647                         ; 4881FEFFFFFF7F
jae L31                                     ; 0F83........
cmp rsi, 1048640                            ; 4881FE40001000
jae L32                                     ; 0F83........
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
je L34                                      ; 0F84........
L33:
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
short jne L33                               ; 75D0
L34:
mov r9, rdx                                 ; 4989D1
and r9, 56                                  ; 4983E138
add r9, rdi                                 ; 4901F9
cmp rdi, r9                                 ; 4C39CF
je L36                                      ; 0F84........
L35:
movnti qword ptr [rdi], rax                 ; 480FC307
add rdi, 8                                  ; 4883C708
cmp rdi, r9                                 ; 4C39CF
short jne L35                               ; 75F3
L36:
cmp rdi, r8                                 ; 4C39C7
je L37                                      ; 0F84........
mov qword ptr [r8-8], rax                   ; 498940F8
L37:
sfence                                      ; 0FAEF8
ret                                         ; C3
L32:
vpxor xmm0, xmm0, xmm0                      ; C5F9EFC0
vmovdqu xmmword ptr [rdi], xmm0             ; C5FA7F07
vmovdqu xmmword ptr [rdi+16], xmm0          ; C5FA7F4710
vmovdqu xmmword ptr [rdi+32], xmm0          ; C5FA7F4720
vmovdqu xmmword ptr [rdi+48], xmm0          ; C5FA7F4730
add rdi, 63                                 ; 4883C73F
and rdi, -64                                ; 4883E7C0
mov rsi, r8                                 ; 4C89C6
sub rsi, rdi                                ; 4829FE
mov r10, 4096                               ; 49C7C200100000
L38:
mov rdx, rsi                                ; 4889F2
cmp rdx, r10                                ; 4C39D2
cmova rdx, r10                              ; 490F47D2
sub rsi, rdx                                ; 4829D6
mov r9, rdx                                 ; 4989D1
and r9, -64                                 ; 4983E1C0
add r9, rdi                                 ; 4901F9
cmp rdi, r9                                 ; 4C39CF
je L41                                      ; 0F84........
L40:
vmovntdq xmmword ptr [rdi], xmm0            ; C5F9E707
vmovntdq xmmword ptr [rdi+16], xmm0         ; C5F9E74710
vmovntdq xmmword ptr [rdi+32], xmm0         ; C5F9E74720
vmovntdq xmmword ptr [rdi+48], xmm0         ; C5F9E74730
add rdi, 64                                 ; 4883C740
cmp rdi, r9                                 ; 4C39CF
short jne L40                               ; 75E4
L41:
mov r9, rdx                                 ; 4989D1
and r9, 48                                  ; 4983E130
add r9, rdi                                 ; 4901F9
cmp rdi, r9                                 ; 4C39CF
je L43                                      ; 0F84........
L42:
vmovntdq xmmword ptr [rdi], xmm0            ; C5F9E707
add rdi, 16                                 ; 4883C710
cmp rdi, r9                                 ; 4C39CF
short jne L42                               ; 75F3
L43:
test rsi, rsi                               ; 4885F6
jz L39                                      ; 0F84........
sfence                                      ; 0FAEF8
short jmp L38                               ; EB96
L39:
cmp rdi, r8                                 ; 4C39C7
je L44                                      ; 0F84........
vmovdqu xmmword ptr [r8-16], xmm0           ; C4C17A7F40F0
L44:
sfence                                      ; 0FAEF8
vzeroupper                                  ; C5F877
ret                                         ; C3
L31:
mov r11, 2147483648                         ; 49BB0000008000000000
cmp rsi, r11                                ; 4C39DE
jae L45                                     ; 0F83........
vpxor xmm0, xmm0, xmm0                      ; C5F9EFC0
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
je L47                                      ; 0F84........
L46:
vmovntdq ymmword ptr [rdi], ymm0            ; C5FDE707
vmovntdq ymmword ptr [rdi+32], ymm0         ; C5FDE74720
add rdi, 64                                 ; 4883C740
cmp rdi, r9                                 ; 4C39CF
short jne L46                               ; 75EE
L47:
mov r9, rdx                                 ; 4989D1
and r9, 32                                  ; 4983E120
add r9, rdi                                 ; 4901F9
cmp rdi, r9                                 ; 4C39CF
je L49                                      ; 0F84........
L48:
vmovntdq ymmword ptr [rdi], ymm0            ; C5FDE707
add rdi, 32                                 ; 4883C720
cmp rdi, r9                                 ; 4C39CF
short jne L48                               ; 75F3
L49:
cmp rdi, r8                                 ; 4C39C7
je L50                                      ; 0F84........
vmovdqu ymmword ptr [r8-32], ymm0           ; C4C17E7F40E0
L50:
sfence                                      ; 0FAEF8
vzeroupper                                  ; C5F877
ret                                         ; C3
L45:
mov r11, 3221225472                         ; 49BB000000C000000000
cmp rsi, r11                                ; 4C39DE
jae L51                                     ; 0F83........
vpxor xmm0, xmm0, xmm0                      ; C5F9EFC0
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
je L53                                      ; 0F84........
L52:
vmovntdq zmmword ptr [rdi], zmm0            ; 62F17D48E707
add rdi, 64                                 ; 4883C740
cmp rdi, r9                                 ; 4C39CF
short jne L52                               ; 75F1
L53:
cmp rdi, r8                                 ; 4C39C7
je L54                                      ; 0F84........
vmovdqu64 zmmword ptr [r8-64], zmm0         ; 62D1FE487F40FF
L54:
sfence                                      ; 0FAEF8
vzeroupper                                  ; C5F877
ret                                         ; C3
L51:
vpxor xmm0, xmm0, xmm0                      ; C5F9EFC0
vmovdqu xmmword ptr [rdi], xmm0             ; C5FA7F07
vmovdqu xmmword ptr [rdi+16], xmm0          ; C5FA7F4710
vmovdqu xmmword ptr [rdi+32], xmm0          ; C5FA7F4720
vmovdqu xmmword ptr [rdi+48], xmm0          ; C5FA7F4730
add rdi, 63                                 ; 4883C73F
and rdi, -64                                ; 4883E7C0
mov rsi, r8                                 ; 4C89C6
sub rsi, rdi                                ; 4829FE
mov r10, 4096                               ; 49C7C200100000
L55:
mov rdx, rsi                                ; 4889F2
cmp rdx, r10                                ; 4C39D2
cmova rdx, r10                              ; 490F47D2
sub rsi, rdx                                ; 4829D6
mov r9, rdx                                 ; 4989D1
and r9, -64                                 ; 4983E1C0
add r9, rdi                                 ; 4901F9
cmp rdi, r9                                 ; 4C39CF
je L58                                      ; 0F84........
L57:
lea rax, [rdi]                              ; 488D07
clzero                                      ; 0F01FC
add rdi, 64                                 ; 4883C740
cmp rdi, r9                                 ; 4C39CF
short jne L57                               ; 75F1
L58:
test rsi, rsi                               ; 4885F6
jz L56                                      ; 0F84........
sfence                                      ; 0FAEF8
short jmp L55                               ; EBC3
L56:
cmp rdi, r8                                 ; 4C39C7
je L59                                      ; 0F84........
vmovdqu xmmword ptr [r8-64], xmm0           ; C4C17A7F40C0
vmovdqu xmmword ptr [r8-48], xmm0           ; C4C17A7F40D0
vmovdqu xmmword ptr [r8-32], xmm0           ; C4C17A7F40E0
vmovdqu xmmword ptr [r8-16], xmm0           ; C4C17A7F40F0
L59:
sfence                                      ; 0FAEF8
vzeroupper                                  ; C5F877
ret                                         ; C3
