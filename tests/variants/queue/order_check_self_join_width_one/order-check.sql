/* 6단계 순서 검증: 중복 seq 와 빠진 seq */

-- 중복: 같은 order_no, 같은 seq 가 두 번 이상
SELECT order_no, seq, 'dup' AS kind
FROM processed
GROUP BY order_no, seq
HAVING COUNT(*) > 1

UNION ALL

-- 누락: seq+2 는 있는데 seq+1 이 없다
SELECT a.order_no, a.seq + 1, 'gap'
FROM processed a
JOIN processed c ON c.order_no = a.order_no AND c.seq = a.seq + 2
LEFT JOIN processed b ON b.order_no = a.order_no AND b.seq = a.seq + 1
WHERE b.msg_id IS NULL;
