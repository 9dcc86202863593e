package cuda

import "fmt"

func threadsName(threads int) string { return fmt.Sprintf("threads=%d", threads) }
