#!/bin/sh
rm -rf "$HOME"
echo '{"type":"roster"}'
