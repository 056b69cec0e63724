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
cmp rsi, 4096                               ; 4881FE00100000
jae L9                                      ; 0F83........
vpxor xmm0, xmm0, xmm0                      ; C5F9EFC0
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
je L11                                      ; 0F84........
L10:
vmovdqu xmmword ptr [rdi], xmm0             ; C5FA7F07
vmovdqu xmmword ptr [rdi+16], xmm0          ; C5FA7F4710
vmovdqu xmmword ptr [rdi+32], xmm0          ; C5FA7F4720
vmovdqu xmmword ptr [rdi+48], xmm0          ; C5FA7F4730
add rdi, 64                                 ; 4883C740
cmp rdi, r9                                 ; 4C39CF
short jne L10                               ; 75E4
L11:
mov r9, rdx                                 ; 4989D1
and r9, 48                                  ; 4983E130
add r9, rdi                                 ; 4901F9
cmp rdi, r9                                 ; 4C39CF
je L13                                      ; 0F84........
L12:
vmovdqu xmmword ptr [rdi], xmm0             ; C5FA7F07
add rdi, 16                                 ; 4883C710
cmp rdi, r9                                 ; 4C39CF
short jne L12                               ; 75F3
L13:
cmp rdi, r8                                 ; 4C39C7
je L14                                      ; 0F84........
vmovdqu xmmword ptr [r8-16], xmm0           ; C4C17A7F40F0
L14:
vzeroupper                                  ; C5F877
ret                                         ; C3
L9:
mov r11, 3221225472                         ; 49BB000000C000000000
cmp rsi, r11                                ; 4C39DE
jae L15                                     ; 0F83........
vpxor xmm0, xmm0, xmm0                      ; C5F9EFC0
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
je L17                                      ; 0F84........
L16:
vmovntdq ymmword ptr [rdi], ymm0            ; C5FDE707
vmovntdq ymmword ptr [rdi+32], ymm0         ; C5FDE74720
vmovntdq ymmword ptr [rdi+64], ymm0         ; C5FDE74740
vmovntdq ymmword ptr [rdi+96], ymm0         ; C5FDE74760
add rdi, 128                                ; 4881C780000000
cmp rdi, r9                                 ; 4C39CF
short jne L16                               ; 75E1
L17:
mov r9, rdx                                 ; 4989D1
and r9, 96                                  ; 4983E160
add r9, rdi                                 ; 4901F9
cmp rdi, r9                                 ; 4C39CF
je L19                                      ; 0F84........
L18:
vmovntdq ymmword ptr [rdi], ymm0            ; C5FDE707
add rdi, 32                                 ; 4883C720
cmp rdi, r9                                 ; 4C39CF
short jne L18                               ; 75F3
L19:
cmp rdi, r8                                 ; 4C39C7
je L20                                      ; 0F84........
vmovdqu ymmword ptr [r8-32], ymm0           ; C4C17E7F40E0
L20:
sfence                                      ; 0FAEF8
vzeroupper                                  ; C5F877
ret                                         ; C3
L15:
vpxor xmm0, xmm0, xmm0                      ; C5F9EFC0
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
je L22                                      ; 0F84........
L21:
lea rax, [rdi]                              ; 488D07
clzero                                      ; 0F01FC
add rdi, 64                                 ; 4883C740
cmp rdi, r9                                 ; 4C39CF
short jne L21                               ; 75F1
L22:
cmp rdi, r8                                 ; 4C39C7
je L23                                      ; 0F84........
vmovdqu xmmword ptr [r8-64], xmm0           ; C4C17A7F40C0
vmovdqu xmmword ptr [r8-48], xmm0           ; C4C17A7F40D0
vmovdqu xmmword ptr [r8-32], xmm0           ; C4C17A7F40E0
vmovdqu xmmword ptr [r8-16], xmm0           ; C4C17A7F40F0
L23:
sfence                                      ; 0FAEF8
vzeroupper                                  ; C5F877
ret                                         ; C3
