cmp rsi, 129                                ; 4881FE81000000
jae L2                                      ; 0F83........
prefetcht0 byte ptr [rdi]                   ; 0F180F
mov eax, edi                                ; 89F8
and eax, 4095                               ; 25FF0F0000
cmp eax, 4032                               ; 3DC00F0000
ja L1                                       ; 0F87........
mov rax, -1                                 ; 48C7C0FFFFFFFF
bzhi rax, rax, rsi                          ; C4E2C8F5C0
kmovq k1, rax                               ; C4E1FB92C8
xor edx, edx                                ; 31D2
lea rcx, [rsi-64]                           ; 488D4EC0
cmp rsi, 64                                 ; 4883FE40
cmovb rcx, rdx                              ; 480F42CA
vpxord xmm16, xmm16, xmm16                  ; 62A17D00EFC0
prefetcht0 byte ptr [rdi+rsi-1]             ; 0F184C37FF
vmovdqu8 zmmword ptr [rdi] {k1}, zmm16      ; 62E17F497F07
prefetcht0 byte ptr [rdi+rcx]               ; 0F180C0F
vmovdqu8 zmmword ptr [rdi+rcx] {k1}, zmm16  ; 62E17F497F040F
ret                                         ; C3
align 64
L1:
cmp rsi, 9                                  ; 4883FE09
jae L3                                      ; 0F83........
cmp rsi, 3                                  ; 4883FE03
jae L4                                      ; 0F83........
cmp rsi, 1                                  ; 4883FE01
jae L5                                      ; 0F83........
ret                                         ; C3
align 64
L5:
mov byte ptr [rdi], 0                       ; C60700
mov byte ptr [rdi+rsi-1], 0                 ; C64437FF00
ret                                         ; C3
align 64
L4:
cmp rsi, 5                                  ; 4883FE05
jae L6                                      ; 0F83........
mov word ptr [rdi], 0                       ; 66C7070000
mov word ptr [rdi+rsi-2], 0                 ; 66C74437FE0000
ret                                         ; C3
align 64
L6:
mov dword ptr [rdi], 0                      ; C70700000000
mov dword ptr [rdi+rsi-4], 0                ; C74437FC00000000
ret                                         ; C3
align 64
L3:
cmp rsi, 33                                 ; 4883FE21
jae L7                                      ; 0F83........
cmp rsi, 17                                 ; 4883FE11
jae L8                                      ; 0F83........
mov qword ptr [rdi], 0                      ; 48C70700000000
mov qword ptr [rdi+rsi-8], 0                ; 48C74437F800000000
ret                                         ; C3
align 64
L8:
vpxord xmm16, xmm16, xmm16                  ; 62A17D00EFC0
vmovdqu64 xmmword ptr [rdi], xmm16          ; 62E1FE087F07
vmovdqu64 xmmword ptr [rdi+rsi-16], xmm16   ; 62E1FE087F4437FF
ret                                         ; C3
align 64
L7:
cmp rsi, 65                                 ; 4883FE41
jae L9                                      ; 0F83........
vpxord xmm16, xmm16, xmm16                  ; 62A17D00EFC0
vmovdqu64 ymmword ptr [rdi], ymm16          ; 62E1FE287F07
vmovdqu64 ymmword ptr [rdi+rsi-32], ymm16   ; 62E1FE287F4437FF
ret                                         ; C3
align 64
L9:
vpxord xmm16, xmm16, xmm16                  ; 62A17D00EFC0
vmovdqu64 zmmword ptr [rdi], zmm16          ; 62E1FE487F07
vmovdqu64 zmmword ptr [rdi+rsi-64], zmm16   ; 62E1FE487F4437FF
ret                                         ; C3
align 64
L2:
cmp rsi, 257                                ; 4881FE01010000
jae L0                                      ; 0F83........
vpxord xmm16, xmm16, xmm16                  ; 62A17D00EFC0
vmovdqu64 zmmword ptr [rdi], zmm16          ; 62E1FE487F07
vmovdqu64 zmmword ptr [rdi+64], zmm16       ; 62E1FE487F4701
vmovdqu64 zmmword ptr [rdi+rsi-128], zmm16  ; 62E1FE487F4437FE
vmovdqu64 zmmword ptr [rdi+rsi-64], zmm16   ; 62E1FE487F4437FF
ret                                         ; C3
L0:
