# order-result.txt saved from Notepad: BOM and CRLF
printf '\357\273\277OK\r\n' > order-result.txt
